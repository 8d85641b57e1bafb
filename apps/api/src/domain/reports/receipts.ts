import { randomBytes, randomInt } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { platformSecrets, receiptSessions, reports } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CaptchaVerifier } from '../../lib/captcha-verifier.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { countVisitorHit, rateLimited } from '../rate-limits/rate-limits.ts';

export const RECEIPT_DIGITS = 16;
/**
 * A receipt session does not slide: a last-seen write would record in the database when the reporter reads
 * their case. At least two hours, like the idle limit of an account session.
 */
export const RECEIPT_SESSION_SECONDS = 2 * 3600;
/**
 * And up to this much more, drawn per session (decision 0030): its expiry minus two hours is then no longer the
 * time of the visit, only somewhere in the two hours before that.
 */
export const RECEIPT_SESSION_JITTER_SECONDS = 2 * 3600;
const HOUR = 3600;

/** 16 decimal digits from the system CSPRNG: 10^16 receipts, each tried at argon2id cost. */
export function generateReceipt(): string {
  let digits = '';
  for (let i = 0; i < RECEIPT_DIGITS; i++) digits += String(randomInt(10));
  return digits;
}

/** `1234 5678 9012 3456`: four groups, read aloud and copied without losing a digit. */
export function formatReceipt(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The receipt as typed, spaces and hyphens ignored; null when it cannot be a receipt. */
export function normalizeReceipt(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${RECEIPT_DIGITS}}$`).test(digits) ? digits : null;
}

const saltCache = new WeakMap<Database, Promise<Buffer>>();

/**
 * The installation's receipt salt: one random value in the database, the same for every process. A fixed salt
 * is what lets a receipt be found by its hash (an index lookup, as GlobaLeaks does); the 10^16 receipt space
 * at argon2id cost is what keeps a copy of the table from being searched.
 */
function receiptSalt(database: Database): Promise<Buffer> {
  let pending = saltCache.get(database);
  if (!pending) {
    pending = (async () => {
      await database.db
        .insert(platformSecrets)
        .values({ name: 'receipt_salt', value: randomBytes(16).toString('base64') })
        .onConflictDoNothing();
      const [row] = await database.db
        .select({ value: platformSecrets.value })
        .from(platformSecrets)
        .where(eq(platformSecrets.name, 'receipt_salt'));
      return Buffer.from(row!.value, 'base64');
    })();
    pending.catch(() => saltCache.delete(database));
    saltCache.set(database, pending);
  }
  return pending;
}

/** The stored form of a receipt: argon2id at the password parameters, under the installation's salt. */
export async function hashReceipt(database: Database, digits: string): Promise<string> {
  return hash(digits, {
    algorithm: 2 /* Argon2id */,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
    salt: await receiptSalt(database),
  });
}

/** A new receipt for a report: the digits to show once, and the hash to store. */
export async function issueReceipt(database: Database): Promise<{ receipt: string; receiptHash: string }> {
  const receipt = generateReceipt();
  return { receipt, receiptHash: await hashReceipt(database, receipt) };
}

export async function createReceiptSession(
  executor: Pick<Db, 'insert'>,
  reportId: string,
): Promise<{ id: string; expires: number }> {
  const id = randomToken();
  const lifetimeSeconds = RECEIPT_SESSION_SECONDS + randomInt(RECEIPT_SESSION_JITTER_SECONDS + 1);
  // Whole seconds, so the stored value has no sub-second part left to line up with the visit.
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + lifetimeSeconds) * 1000);
  await executor.insert(receiptSessions).values({ idHash: sha256Hex(id), reportId, expiresAt });
  return { id, expires: Math.floor(expiresAt.getTime() / 1000) };
}

export interface ReceiptSession {
  reportId: string;
  expires: number;
}

export async function findReceiptSession(database: Database, id: string): Promise<ReceiptSession | null> {
  const idHash = sha256Hex(id);
  const [row] = await database.db.select().from(receiptSessions).where(eq(receiptSessions.idHash, idHash));
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now()) {
    await database.db.delete(receiptSessions).where(eq(receiptSessions.idHash, idHash));
    return null;
  }
  return { reportId: row.reportId, expires: Math.floor(row.expiresAt.getTime() / 1000) };
}

export async function deleteReceiptSession(database: Database, id: string): Promise<void> {
  await database.db.delete(receiptSessions).where(eq(receiptSessions.idHash, sha256Hex(id)));
}

export async function pruneReceiptSessions(database: Database): Promise<void> {
  await database.db.delete(receiptSessions).where(sql`${receiptSessions.expiresAt} < now()`);
}

/**
 * Opens the report a receipt belongs to. Throttled per address and hour under the process's visitor key
 * (decision 0030), never under SECRET_KEY, with the login captcha; a wrong receipt is the same 400 as a wrong
 * password, after the same argon2id work.
 */
export async function openReceipt(
  { database, config, captcha }: { database: Database; config: Config; captcha: CaptchaVerifier },
  input: { receipt: string; captcha?: string },
  client: { visitorKey: string },
): Promise<{ sessionId: string; reportId: string; expires: number }> {
  const ipKey = `receipt-ip:${client.visitorKey}`;
  if ((await countVisitorHit(database, ipKey, HOUR)) > config.RECEIPT_LIMIT_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
  await captcha.verify(input.captcha);
  const digits = normalizeReceipt(input.receipt);
  // A malformed receipt costs the same hash, so the answer's timing says nothing about the format check.
  const receiptHash = await hashReceipt(database, digits ?? input.receipt.slice(0, 64));
  const [report] = digits
    ? await database.db.select({ id: reports.id }).from(reports).where(eq(reports.receiptHash, receiptHash))
    : [];
  if (!report) throw new AppError('INVALID_CREDENTIALS');
  const session = await createReceiptSession(database.db, report.id);
  return { sessionId: session.id, reportId: report.id, expires: session.expires };
}
