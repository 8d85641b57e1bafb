import { create } from 'zustand';

/**
 * Receipts the reporter chose to keep on this device. Deliberately outside the draft's prefix: logging out
 * clears drafts, and must not take away the only way back into an anonymous report.
 */
export const SAVED_RECEIPTS_KEY = 'ansim.savedReceipts';

export interface SavedReceipt {
  receipt: string;
  /** ISO date of saving. */
  savedAt: string;
}

/**
 * Navigation state from the dashboard to /receipt: which saved receipt to fill in (by when it was saved, not
 * the digits).
 */
export interface ReceiptPageState {
  savedAt?: string;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readSavedReceipts(): SavedReceipt[] {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(SAVED_RECEIPTS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (item): item is SavedReceipt =>
        typeof item?.receipt === 'string' &&
        /^\d{16}$/.test(item.receipt) &&
        typeof item.savedAt === 'string',
    );
  } catch {
    return [];
  }
}

function write(receipts: SavedReceipt[]): void {
  try {
    if (receipts.length === 0) storage()?.removeItem(SAVED_RECEIPTS_KEY);
    else storage()?.setItem(SAVED_RECEIPTS_KEY, JSON.stringify(receipts));
  } catch (error) {
    console.warn('Could not store the receipt on this device', error);
  }
}

interface SavedReceiptsState {
  receipts: SavedReceipt[];
  save: (receipt: string) => void;
  forget: (receipt: string) => void;
}

export const useSavedReceipts = create<SavedReceiptsState>((set, get) => ({
  receipts: readSavedReceipts(),
  save: (grouped) => {
    // The server answers with the receipt grouped in fours; only the digits are kept.
    const receipt = grouped.replace(/\D/g, '');
    if (get().receipts.some((item) => item.receipt === receipt)) return;
    const receipts = [...get().receipts, { receipt, savedAt: new Date().toISOString() }];
    write(receipts);
    set({ receipts });
  },
  forget: (grouped) => {
    const receipt = grouped.replace(/\D/g, '');
    const receipts = get().receipts.filter((item) => item.receipt !== receipt);
    write(receipts);
    set({ receipts });
  },
}));

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === SAVED_RECEIPTS_KEY || event.key === null)
      useSavedReceipts.setState({ receipts: readSavedReceipts() });
  });
}
