import { z } from 'zod';

/**
 * GET /api/v1/captcha/challenge: an ALTCHA challenge. Its signature covers the parameters, so fields a later
 * altcha-lib adds are passed through untouched (a dropped one would make every solution fail).
 */
export const altchaChallengeSchema = z.object({
  parameters: z
    .object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      expiresAt: z.number().optional(),
    })
    .loose(),
  signature: z.string(),
});
export type AltchaChallenge = z.infer<typeof altchaChallengeSchema>;
