/**
 * Case references (decision 0030): the year, a hyphen and six characters of Crockford's base32, e.g.
 * `2026-K7M3QX`. Random per case, so that no reference tells how many cases the company has, or that one is
 * missing from a handler's list.
 */
export const CASE_REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CASE_REFERENCE_LENGTH = 6;
export const CASE_REFERENCE_PATTERN = /^\d{4}-[0-9A-HJKMNP-TV-Z]{6}$/;

/**
 * A typed search that can only be the start of a case reference (a year, perhaps a hyphen and characters of
 * the reference), in the stored form: upper case, and the letters Crockford reads as digits (I and L as 1, O
 * as 0) mapped, as someone copying a reference off paper may type them. Null when it cannot be one.
 */
export function caseReferencePrefix(input: string): string | null {
  const typed = input.trim().toUpperCase();
  const match = /^(\d{1,4})(?:(-)([0-9A-Z]{0,6}))?$/.exec(typed);
  if (!match) return null;
  const [, year = '', hyphen, rest = ''] = match;
  if (!hyphen) return year;
  if (year.length !== 4) return null;
  const code = rest.replace(/[IL]/g, '1').replace(/O/g, '0');
  if (/U/.test(code)) return null;
  return `${year}-${code}`;
}
