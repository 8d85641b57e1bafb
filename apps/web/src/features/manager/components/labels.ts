import type { TFunction } from 'i18next';

/** Label lookups for server enums; an unknown value (a newer server) shows as itself rather than a key. */
const label = (t: TFunction, group: string, value: string) =>
  t(`manager.labels.${group}.${value}`, { defaultValue: value });

export const statusLabel = (t: TFunction, status: string) => label(t, 'status', status);
export const typeLabel = (t: TFunction, type: string) => t(`reportTypes.${type}`, { defaultValue: type });
export const harmLabel = (t: TFunction, harm: string) => label(t, 'harm', harm);
export const wishLabel = (t: TFunction, wish: string) => label(t, 'wish', wish);
export const protectionLabel = (t: TFunction, measure: string) => label(t, 'protection', measure);
export const reporterKindLabel = (t: TFunction, kind: string) => label(t, 'reporterKind', kind);
export const defendantTruthLabel = (t: TFunction, truth: string) => label(t, 'defendantTruth', truth);
/** The form stores the Korean option itself (상급자…); other languages translate it, free text stays as typed. */
export const relationshipLabel = (t: TFunction, relationship: string) =>
  relationship ? label(t, 'relationship', relationship) : '';
export const auditActionLabel = (t: TFunction, action: string) => label(t, 'audit', action);
