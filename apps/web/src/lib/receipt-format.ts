export const RECEIPT_DIGITS = 16;

/** What the reporter typed, without spaces or dashes; null unless exactly 16 digits remain. */
export function normalizeReceipt(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${RECEIPT_DIGITS}}$`).test(digits) ? digits : null;
}

/** `1234 5678 9012 3456`: four groups are easier to copy down by hand and read back than 16 digits. */
export function groupReceipt(receipt: string): string {
  const digits = receipt.replace(/\D/g, '');
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The last group only, for lists where the whole receipt should not be on screen. */
export const receiptTail = (receipt: string): string => receipt.replace(/\D/g, '').slice(-4);
