import { request } from '../../../lib/request';

export const RECEIPT_PATH = '/api/v1/receipt/';

export interface ReceiptSessionInfo {
  report_id: string;
  expires: number | string;
}

/** POST /api/v1/receipt/: opens one anonymous report for two hours (HttpOnly `receiptid` cookie). */
export const openReceipt = (body: { receipt: string; captcha: string }) =>
  request<ReceiptSessionInfo>('post', RECEIPT_PATH, { data: body });

export const endReceiptSession = () => request<void>('delete', RECEIPT_PATH);
