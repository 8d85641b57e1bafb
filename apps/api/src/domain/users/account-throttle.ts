import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { countHit, rateLimited } from '../rate-limits/rate-limits.ts';

const HOUR = 3600;

/**
 * Throttles the requests that send mail (registration, confirmation re-send, password reset) before any work:
 * per client IP, per IP for join-code attempts, and per e-mail address. Every request counts, whether or not
 * the address has an account and whether or not the join code is right, so a 429 tells nothing about either.
 * Keys are keyed hashes: neither the IP nor the address is written anywhere.
 */
export async function throttleAccountRequest(
  { database, config }: { database: Database; config: Config },
  client: { addressKey: string },
  email: string,
  options: { joinCode?: boolean } = {},
): Promise<void> {
  const ipKey = `account-ip:${client.addressKey}`;
  if ((await countHit(database, ipKey, HOUR)) > config.ACCOUNT_REQUESTS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
  if (options.joinCode) await throttleJoinCodeAttempt({ database, config }, client);
  const addressKey = `account-mail:${hmacHex(config.SECRET_KEY, `mail:${email}`)}`;
  if ((await countHit(database, addressKey, HOUR)) > config.MAILS_PER_ADDRESS_PER_HOUR)
    throw rateLimited(HOUR);
}

/**
 * Throttles the public routes that take a mailed token in the path (a company invitation), per client IP: the
 * token has 256 bits, so this only keeps a script from hammering the password hashing behind them.
 */
export async function throttleTokenRequest(
  { database, config }: { database: Database; config: Config },
  client: { addressKey: string },
  scope: string,
): Promise<void> {
  const ipKey = `${scope}-ip:${client.addressKey}`;
  if ((await countHit(database, ipKey, HOUR)) > config.ACCOUNT_REQUESTS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
}

/**
 * Join codes are short secrets: every attempt from an address counts, right or wrong, at registration and on
 * the account page alike (one counter), so guessing codes stops at JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR.
 */
export async function throttleJoinCodeAttempt(
  { database, config }: { database: Database; config: Config },
  client: { addressKey: string },
): Promise<void> {
  const joinKey = `join-code-ip:${client.addressKey}`;
  if ((await countHit(database, joinKey, HOUR)) > config.JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
}
