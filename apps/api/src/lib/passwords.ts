import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** OWASP's argon2id floor: 19 MiB, two passes, one lane. */
const ARGON2_OPTIONS = {
  algorithm: 2 /* Argon2id; the package's const enum cannot be imported under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a fixed hash for an unknown account, so a wrong e-mail costs the same time as a wrong
 * password and the answer's timing does not reveal whether an account exists.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-account-password');
  await verifyPassword(await dummyHash, password);
}

// zxcvbn's list of ~49,000 leaked passwords, plus patterns common on Korean keyboards and sites.
const COMMON_PASSWORDS = new Set<string>([
  ...(dictionary['passwords-common'] as string[]),
  'qwer1234',
  'q1w2e3r4',
  '1q2w3e4r',
  '1q2w3e4r!',
  '1q2w3e4r5t',
  'asdf1234',
  'zxcv1234',
  'a1234567',
  'abcd1234',
  'password1!',
  'qwer1234!',
  'gksrmf123',
  'dkssud123',
  'tkfkdgo123',
  'sarang1234',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

export function commonPasswordCount(): number {
  return COMMON_PASSWORDS.size;
}
