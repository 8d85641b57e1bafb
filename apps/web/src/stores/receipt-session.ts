import { create } from 'zustand';
import { expiresToMillis } from './intake-token';

/**
 * The receipt session itself is an HttpOnly cookie the page cannot read. This remembers which report it
 * opened and until when, so the route guard lets a visitor without an account onto that report's page.
 */
const RECEIPT_SESSION_KEY = 'ansim.receiptSession';
/** The server's fixed life of a receipt session (decision 0005), for when it does not say. */
export const RECEIPT_SESSION_MS = 2 * 60 * 60 * 1000;

export interface ReceiptSession {
  reportId: string;
  expiresAt: number;
}

function read(): ReceiptSession | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(RECEIPT_SESSION_KEY) ?? 'null') as ReceiptSession | null;
    return parsed && typeof parsed.reportId === 'string' && typeof parsed.expiresAt === 'number'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

function write(session: ReceiptSession | null): void {
  try {
    if (session) sessionStorage.setItem(RECEIPT_SESSION_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(RECEIPT_SESSION_KEY);
  } catch {
    // Kept in memory for this page only.
  }
}

interface ReceiptSessionState {
  session: ReceiptSession | null;
  open: (reportId: string, expires?: unknown) => void;
  close: () => void;
}

export const useReceiptSession = create<ReceiptSessionState>((set) => ({
  session: read(),
  open: (reportId, expires) => {
    const parsed = expiresToMillis(expires);
    const session = {
      reportId: String(reportId),
      expiresAt: Number.isFinite(parsed) ? parsed : Date.now() + RECEIPT_SESSION_MS,
    };
    write(session);
    set({ session });
  },
  close: () => {
    write(null);
    set({ session: null });
  },
}));

export const isReceiptSessionFor = (session: ReceiptSession | null, reportId: string, now = Date.now()) =>
  session !== null && session.reportId === reportId && session.expiresAt > now;

export const useHasReceiptSession = (): boolean =>
  useReceiptSession((state) => state.session !== null && state.session.expiresAt > Date.now());
