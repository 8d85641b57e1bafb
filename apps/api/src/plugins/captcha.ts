import type { AltchaChallenge } from '@ansim/shared/contract/captcha';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import type { CaptchaVerifier } from '../lib/captcha-verifier.ts';
import { sha256Hex } from '../lib/tokens.ts';

const CHALLENGE_TTL_SECONDS = 10 * 60;

interface AltchaPayload {
  challenge: { parameters: { nonce: string; expiresAt?: number } } & Record<string, unknown>;
  solution: Record<string, unknown>;
}

function parseAltchaPayload(value: string): AltchaPayload | null {
  try {
    const payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as AltchaPayload;
    if (typeof payload?.challenge?.parameters?.nonce !== 'string' || typeof payload.solution !== 'object')
      return null;
    return payload;
  } catch {
    return null;
  }
}

/**
 * ALTCHA is self-hosted proof of work, so no third party sees a reporter's visit. Each solution is accepted
 * once: its nonce is written to `captcha_solutions`, shared by every API process.
 */
export function createAltchaVerifier(config: Config, database: Database): CaptchaVerifier {
  return {
    provider: 'altcha',
    // Typed by the wire contract, whose parameters also pass through any field a later altcha-lib adds.
    createChallenge: async () =>
      (await createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(Math.floor(config.ALTCHA_MAX_NUMBER / 10), config.ALTCHA_MAX_NUMBER),
        deriveKey,
        hmacSignatureSecret: config.ALTCHA_HMAC_KEY,
        expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
      })) as AltchaChallenge,
    async verify(solution) {
      const payload = solution ? parseAltchaPayload(solution) : null;
      if (!payload) throw new AppError('CAPTCHA_FAILED');
      let verified = false;
      try {
        const result = await verifySolution({
          challenge: payload.challenge as never,
          solution: payload.solution as never,
          deriveKey,
          hmacSignatureSecret: config.ALTCHA_HMAC_KEY,
        });
        verified = result.verified;
      } catch {
        verified = false;
      }
      if (!verified) throw new AppError('CAPTCHA_FAILED');
      const rows = await database.query(
        `INSERT INTO captcha_solutions (id, expires_at) VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [sha256Hex(payload.challenge.parameters.nonce), CHALLENGE_TTL_SECONDS],
      );
      if (rows.length === 0) throw new AppError('CAPTCHA_FAILED');
    },
  };
}

export function createTurnstileVerifier(config: Config): CaptchaVerifier {
  return {
    provider: 'turnstile',
    createChallenge: async () => null,
    async verify(solution) {
      if (!solution) throw new AppError('CAPTCHA_FAILED');
      // No remoteip: the reporter's address is never handed to anyone, Cloudflare included.
      const body = new URLSearchParams({
        secret: config.TURNSTILE_SECRET_KEY ?? '',
        response: solution,
      });
      let success = false;
      try {
        const response = await fetch(config.TURNSTILE_VERIFY_URL, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(10_000),
        });
        success = response.ok && ((await response.json()) as { success?: boolean }).success === true;
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      if (!success) throw new AppError('CAPTCHA_FAILED');
    },
  };
}

export function createCaptchaVerifier(config: Config, database: Database): CaptchaVerifier {
  return config.CAPTCHA_PROVIDER === 'turnstile'
    ? createTurnstileVerifier(config)
    : createAltchaVerifier(config, database);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The one captcha of this app; the domain gets it through `deps`, the challenge route from here. */
    captcha: CaptchaVerifier;
  }
}

export interface CaptchaPluginOptions {
  config: Config;
  database: Database;
  /** A verifier of the caller's own (tests); by default the configured provider's. */
  verifier?: CaptchaVerifier;
}

export const captchaPlugin = fp<CaptchaPluginOptions>(
  async (app, { config, database, verifier }) => {
    app.decorate('captcha', verifier ?? createCaptchaVerifier(config, database));
  },
  { name: 'captcha' },
);
