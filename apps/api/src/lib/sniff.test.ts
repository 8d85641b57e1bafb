import { EVIDENCE_TYPES } from '@ansim/shared/contract/evidence-types';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_CONTENT_TYPES } from './sniff.ts';

/** The web's file picker is narrowed to the shared list (EVIDENCE_ACCEPT); the server decides by the bytes. */
describe('the evidence types of the picker and of the server', () => {
  const offered = (type: string) =>
    EVIDENCE_TYPES.some(
      ({ contentType }) =>
        contentType === type || (contentType.endsWith('/*') && type.startsWith(contentType.slice(0, -1))),
    );

  it('offers in the picker every type the server stores', () => {
    for (const type of ACCEPTED_CONTENT_TYPES) expect(offered(type.split(';')[0]!), type).toBe(true);
  });

  it('offers nothing in the picker that the server refuses', () => {
    const stored = [...ACCEPTED_CONTENT_TYPES].map((type) => type.split(';')[0]!);
    for (const { contentType } of EVIDENCE_TYPES) {
      const family = contentType.endsWith('/*') ? contentType.slice(0, -1) : null;
      expect(
        stored.some((type) => type === contentType || (family !== null && type.startsWith(family))),
        contentType,
      ).toBe(true);
    }
  });
});
