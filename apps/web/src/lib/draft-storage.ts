/**
 * Every field of the report draft lives under its own localStorage key with this prefix (spec §3, §5), so
 * logout can remove every locally stored draft without knowing the form's shape.
 */
export const DRAFT_PREFIX = 'ansim.reportDraft.';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Private modes may throw on access; the draft then simply lives in memory.
    return null;
  }
}

export function readDraftField<T>(field: string): T | undefined {
  const raw = storage()?.getItem(DRAFT_PREFIX + field);
  if (raw === null || raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function writeDraftField(field: string, value: unknown): void {
  try {
    storage()?.setItem(DRAFT_PREFIX + field, JSON.stringify(value));
  } catch (error) {
    console.warn('Could not store the report draft locally', error);
  }
}

export function removeDraftField(field: string): void {
  try {
    storage()?.removeItem(DRAFT_PREFIX + field);
  } catch (error) {
    console.warn('Could not update the local report draft', error);
  }
}

export function clearDrafts(): void {
  const store = storage();
  if (!store) return;
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}
