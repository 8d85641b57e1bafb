import type { AltchaChallenge } from '@ansim/shared/contract/captcha';

/**
 * What the domain needs of a captcha: the login, the receipt and the public intake ask for a proof before
 * they count a try. The providers live in plugins/captcha.ts; tests pass a verifier of their own.
 */
export interface CaptchaVerifier {
  provider: 'altcha' | 'turnstile';
  /** A fresh challenge for the ALTCHA widget; null for Turnstile, whose challenges come from Cloudflare. */
  createChallenge(): Promise<AltchaChallenge | null>;
  /** Throws CAPTCHA_FAILED unless the solution is valid and has not been used before. */
  verify(solution: string | undefined): Promise<void>;
}
