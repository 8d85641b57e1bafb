import { afterEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_PREFIX, writeDraftField } from '../lib/draft-storage';
import { logout } from '../lib/login-actions';
import { readSavedReceipts, SAVED_RECEIPTS_KEY, useSavedReceipts } from './saved-receipts';

vi.mock('../lib/request', () => ({ request: vi.fn().mockResolvedValue(undefined) }));

afterEach(() => {
  localStorage.clear();
  useSavedReceipts.setState({ receipts: [] });
});

describe('saved receipts', () => {
  it('saves a receipt once and forgets it on request', () => {
    useSavedReceipts.getState().save('1234567890123456');
    useSavedReceipts.getState().save('1234567890123456');
    expect(readSavedReceipts().map((item) => item.receipt)).toEqual(['1234567890123456']);
    useSavedReceipts.getState().forget('1234567890123456');
    expect(localStorage.getItem(SAVED_RECEIPTS_KEY)).toBeNull();
  });

  it('ignores anything stored that is not a 16-digit receipt', () => {
    localStorage.setItem(
      SAVED_RECEIPTS_KEY,
      JSON.stringify([
        { receipt: '12', savedAt: 'x' },
        { receipt: '1234567890123456', savedAt: '2026-01-01' },
        5,
      ]),
    );
    expect(readSavedReceipts()).toEqual([{ receipt: '1234567890123456', savedAt: '2026-01-01' }]);
  });

  it('survives logout, which removes the draft and its intake token', async () => {
    useSavedReceipts.getState().save('1234567890123456');
    writeDraftField('intake', { token: 't', expiresAt: 1, code: null, companyName: '' });
    await logout();
    expect(Object.keys(localStorage).filter((key) => key.startsWith(DRAFT_PREFIX))).toEqual([]);
    expect(readSavedReceipts().map((item) => item.receipt)).toEqual(['1234567890123456']);
  });
});
