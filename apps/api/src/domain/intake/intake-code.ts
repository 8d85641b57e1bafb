import { randomInt } from 'node:crypto';

/** Crockford's base32 in lower case: no i, l, o or u, so a code read off a poster is typed right. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 16 characters of 5 bits: 80 bits from the system CSPRNG (at least 64, decision 0030). */
export const INTAKE_CODE_LENGTH = 16;
export const INTAKE_CODE_BITS = INTAKE_CODE_LENGTH * 5;

/** A company's public intake link code, `/c/{code}`. */
export function generateIntakeCode(): string {
  let code = '';
  for (let i = 0; i < INTAKE_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
