import type { InvitationKind } from './api/invitation-api';

/** What the invitee is shown after submitting: the server's SHA-256 of the stored statement and the time. */
export interface SavedReceipt {
  receipt: string;
  submitted_at: string;
  case_number: string;
}

const receiptKey = (kind: InvitationKind) => `ansim.invitationReceipt.${kind}`;

/** Kept for this tab so a reload after submitting still shows the receipt instead of an "already sent" page. */
export function saveReceipt(kind: InvitationKind, receipt: SavedReceipt): void {
  try {
    sessionStorage.setItem(receiptKey(kind), JSON.stringify(receipt));
  } catch {
    // Without storage the receipt is still on screen until the tab is closed.
  }
}

export function readReceipt(kind: InvitationKind): SavedReceipt | null {
  try {
    const raw = sessionStorage.getItem(receiptKey(kind));
    if (!raw) return null;
    const saved = JSON.parse(raw) as Partial<SavedReceipt>;
    if (
      typeof saved.receipt === 'string' &&
      /^[0-9a-f]{64}$/.test(saved.receipt) &&
      typeof saved.submitted_at === 'string' &&
      typeof saved.case_number === 'string'
    ) {
      return saved as SavedReceipt;
    }
    return null;
  } catch {
    return null;
  }
}
