import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { countHit, currentCount, rateLimited } from '../rate-limits/rate-limits.ts';
import type { FileOwner } from './files.ts';

const HOUR = 3600;
/** Bytes are counted in KiB: an hour of a busy address stays well inside the counter's 32 bits. */
const KIB = 1024;

type LimitConfig = Pick<
  Config,
  | 'UPLOADS_PER_CALLER_PER_HOUR'
  | 'UPLOAD_BYTES_PER_CALLER_PER_HOUR'
  | 'UPLOADS_PER_IP_PER_HOUR'
  | 'UPLOAD_BYTES_PER_IP_PER_HOUR'
>;

/**
 * The caller an upload is counted and queued under: the intake session, the receipt session (its report),
 * the account or the invitation that owns the file. Only ever an id the server issued, never an address.
 */
export function uploadCaller(owner: FileOwner): string {
  if ('userId' in owner) return `user:${owner.userId}`;
  if ('invitationId' in owner) return `invitation:${owner.invitationId}`;
  if ('intakeId' in owner) return `intake:${owner.intakeId}`;
  return `receipt:${owner.reportId}`;
}

/**
 * Who uploads is counted in the database, so the counters are keyed like the anonymous visitors' throttles:
 * under a key the process holds in memory (decision 0030). Rows named after an account, or an address keyed
 * with SECRET_KEY, would tell a database copy that this account uploaded within the hour an anonymous report
 * came in. The price: the limits count per process.
 */
export interface UploadClient {
  /** The address keyed under the process's visitor key (`request.visitorKey`). */
  addressKey: string;
  /** Keys a caller id under the same process key (`visitorDigest`). */
  keyed(value: string): string;
}

function keys(owner: FileOwner, client: UploadClient) {
  const caller = client.keyed(uploadCaller(owner));
  return {
    callerCount: `upload-count:${caller}`,
    callerBytes: `upload-kib:${caller}`,
    ipCount: `upload-count-ip:${client.addressKey}`,
    ipBytes: `upload-kib-ip:${client.addressKey}`,
  };
}

/**
 * Counts one upload before its body is read: past the hour's count, or with the hour's bytes already spent,
 * of its caller or of its address, the answer is 429 with Retry-After. The counters are rows every API
 * process shares (domain/rate-limits).
 */
export async function chargeUploadAttempt(
  database: Database,
  config: LimitConfig,
  owner: FileOwner,
  client: UploadClient,
): Promise<void> {
  const key = keys(owner, client);
  const [callerCount, ipCount, callerKib, ipKib] = await Promise.all([
    countHit(database, key.callerCount, HOUR),
    countHit(database, key.ipCount, HOUR),
    currentCount(database, key.callerBytes, HOUR),
    currentCount(database, key.ipBytes, HOUR),
  ]);
  if (
    callerCount > config.UPLOADS_PER_CALLER_PER_HOUR ||
    ipCount > config.UPLOADS_PER_IP_PER_HOUR ||
    callerKib * KIB >= config.UPLOAD_BYTES_PER_CALLER_PER_HOUR ||
    ipKib * KIB >= config.UPLOAD_BYTES_PER_IP_PER_HOUR
  )
    throw rateLimited(HOUR);
}

/** Counts the received bytes; an upload that takes its caller or address past the hour's bytes is 429. */
export async function chargeUploadBytes(
  database: Database,
  config: LimitConfig,
  owner: FileOwner,
  client: UploadClient,
  size: number,
): Promise<void> {
  const key = keys(owner, client);
  const kib = Math.ceil(size / KIB);
  const [callerKib, ipKib] = await Promise.all([
    countHit(database, key.callerBytes, HOUR, kib),
    countHit(database, key.ipBytes, HOUR, kib),
  ]);
  if (
    callerKib * KIB > config.UPLOAD_BYTES_PER_CALLER_PER_HOUR ||
    ipKib * KIB > config.UPLOAD_BYTES_PER_IP_PER_HOUR
  )
    throw rateLimited(HOUR);
}
