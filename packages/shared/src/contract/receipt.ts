import { z } from 'zod';
import { epochSeconds } from './common.ts';

/** /api/v1/receipt/: the way back to an anonymous report, its 16-digit receipt (decision 0005). */
export const receiptBody = z.object({
  receipt: z.string().max(64, '접수번호가 올바르지 않습니다.').describe('16 digits; spaces ignored'),
  captcha: z.string().max(10_000).optional(),
});
export type ReceiptBody = z.infer<typeof receiptBody>;

export const receiptSessionSchema = z.object({ report_id: z.uuid(), expires: epochSeconds });
export type ReceiptSession = z.infer<typeof receiptSessionSchema>;
