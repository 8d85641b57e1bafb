import type { ReceiptBody, ReceiptSession } from '@ansim/shared/contract/receipt';
import { request } from '../lib/request';

export const RECEIPT_PATH = '/api/v1/receipt/';

export type { ReceiptSession as ReceiptSessionInfo };

/** POST /api/v1/receipt/: opens one anonymous report for two hours (HttpOnly `receiptid` cookie). */
export const openReceipt = (body: ReceiptBody) =>
  request<ReceiptSession>('post', RECEIPT_PATH, { data: body });

export const endReceiptSession = () => request<void>('delete', RECEIPT_PATH);
