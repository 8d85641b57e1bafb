import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { hmacHex } from '../../lib/tokens.ts';
import { countHit, rateLimited } from '../../plugins/rate-limit.ts';

const HOUR = 3600;

/**
 * Throttles the requests that send mail (registration, confirmation re-send, password reset) before any work:
 * per client IP, per IP for join-code attempts, and per e-mail address. Every request counts, whether or not
 * the address has an account and whether or not the join code is right, so a 429 tells nothing about either.
 * Keys are keyed hashes: neither the IP nor the address is written anywhere.
 */
export async function throttleAccountRequest(
  { database, config }: { database: Database; config: Config },
  client: { ip: string },
  email: string,
  options: { joinCode?: boolean } = {},
): Promise<void> {
  const ipKey = `account-ip:${hmacHex(config.SECRET_KEY, client.ip)}`;
  if ((await countHit(database, ipKey, HOUR)) > config.ACCOUNT_REQUESTS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
  if (options.joinCode) {
    const joinKey = `join-code-ip:${hmacHex(config.SECRET_KEY, client.ip)}`;
    if ((await countHit(database, joinKey, HOUR)) > config.JOIN_CODE_ATTEMPTS_PER_IP_PER_HOUR)
      throw rateLimited(HOUR);
  }
  const addressKey = `account-mail:${hmacHex(config.SECRET_KEY, `mail:${email}`)}`;
  if ((await countHit(database, addressKey, HOUR)) > config.MAILS_PER_ADDRESS_PER_HOUR)
    throw rateLimited(HOUR);
}
