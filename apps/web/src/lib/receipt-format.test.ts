import { describe, expect, it } from 'vitest';
import { groupReceipt, normalizeReceipt, receiptTail } from './receipt-format';

describe('receipt format', () => {
  it('ignores spaces and dashes, and wants exactly 16 digits', () => {
    expect(normalizeReceipt('1234 5678 9012 3456')).toBe('1234567890123456');
    expect(normalizeReceipt(' 1234-5678-9012-3456 ')).toBe('1234567890123456');
    expect(normalizeReceipt('1234 5678 9012 345')).toBeNull();
    expect(normalizeReceipt('1234 5678 9012 34567')).toBeNull();
    expect(normalizeReceipt('1234 5678 9012 345a')).toBeNull();
    expect(normalizeReceipt('')).toBeNull();
  });

  it('groups a receipt in fours and shows only the last group in lists', () => {
    expect(groupReceipt('1234567890123456')).toBe('1234 5678 9012 3456');
    expect(groupReceipt('1234 5678 9012 3456')).toBe('1234 5678 9012 3456');
    expect(receiptTail('1234 5678 9012 3456')).toBe('3456');
  });
});
