/**
 * Every field of the report draft lives under its own localStorage key with this prefix (R-WIZ-5), so
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

/** One draft's keys in localStorage: each value JSON under `prefix + name`. */
export interface DraftStorage {
  read: <T>(name: string) => T | undefined;
  write: (name: string, value: unknown) => void;
  remove: (name: string) => void;
  /** Removes every key under the prefix, including ones this version of the app no longer writes. */
  clear: () => void;
}

export function draftStorage(prefix: string): DraftStorage {
  return {
    read: (name) => {
      const raw = storage()?.getItem(prefix + name);
      if (raw === null || raw === undefined) return undefined;
      try {
        return JSON.parse(raw);
      } catch {
        return undefined;
      }
    },
    write: (name, value) => {
      try {
        storage()?.setItem(prefix + name, JSON.stringify(value));
      } catch (error) {
        console.warn('Could not store the draft locally', error);
      }
    },
    remove: (name) => {
      try {
        storage()?.removeItem(prefix + name);
      } catch (error) {
        console.warn('Could not update the local draft', error);
      }
    },
    clear: () => {
      const store = storage();
      if (!store) return;
      const keys: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key?.startsWith(prefix)) keys.push(key);
      }
      for (const key of keys) store.removeItem(key);
    },
  };
}

/** The reporter's draft, which the anonymous intake and the contact address share. */
export const reportDraftStorage = draftStorage(DRAFT_PREFIX);

export const readDraftField = reportDraftStorage.read;
export const writeDraftField = reportDraftStorage.write;
export const removeDraftField = reportDraftStorage.remove;
export const clearDrafts = reportDraftStorage.clear;
