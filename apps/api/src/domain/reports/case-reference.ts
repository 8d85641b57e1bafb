import { randomInt } from 'node:crypto';
import { CASE_REFERENCE_ALPHABET, CASE_REFERENCE_LENGTH } from '@ansim/shared/case-reference';

/** Candidates tried in order by one submission; the first its company has not used wins. */
export const CASE_REFERENCE_CANDIDATES = 8;

/**
 * A case reference (decision 0030): the year and six characters of Crockford's base32 from the system CSPRNG,
 * 30 random bits, e.g. `2026-K7M3QX`. Unique per company (the submission takes the first unused candidate).
 */
export function generateCaseReference(year: number): string {
  let code = '';
  for (let i = 0; i < CASE_REFERENCE_LENGTH; i++)
    code += CASE_REFERENCE_ALPHABET[randomInt(CASE_REFERENCE_ALPHABET.length)];
  return `${year}-${code}`;
}

export function caseReferenceCandidates(year: number): string[] {
  return Array.from({ length: CASE_REFERENCE_CANDIDATES }, () => generateCaseReference(year));
}
