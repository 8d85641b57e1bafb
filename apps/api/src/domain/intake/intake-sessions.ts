import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { companies, intakeSessions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { CaptchaVerifier } from '../../lib/captcha-verifier.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { countVisitorHit, rateLimited } from '../rate-limits/rate-limits.ts';

/** Long enough to write a report over several evenings; the draft's files go with the session. */
export const INTAKE_SESSION_DAYS = 7;
/** After submission the session answers a retried submission with the same report and receipt, this long. */
export const INTAKE_REPLAY_MINUTES = 15;
const HOUR = 3600;
/** New anonymous drafts per IP per hour through a public intake link. */
const INTAKE_SESSIONS_PER_IP_PER_HOUR = 20;

export interface IntakeSession {
  id: string;
  companyId: string;
  submittedAt: Date | null;
  submission: string | null;
}

export interface IntakeCompany {
  id: string;
  name: string;
  helpText: string;
  noticeContact: string;
}

export async function findCompanyByIntakeCode(
  { database, config }: { database: Database; config: Config },
  code: string,
  client: { visitorKey: string },
): Promise<IntakeCompany> {
  // Per process, under the process's visitor key, by hour (decision 0030): enough to use, too few to guess codes.
  const ipKey = `intake-lookup:${client.visitorKey}`;
  if ((await countVisitorHit(database, ipKey, HOUR)) > config.INTAKE_LOOKUPS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
  const [company] = await database.db
    .select({
      id: companies.id,
      name: companies.name,
      helpText: companies.intakeHelpText,
      noticeContact: companies.noticeContact,
    })
    .from(companies)
    .where(eq(companies.intakeCode, code.trim().toLowerCase()));
  if (!company) throw new AppError('NOT_FOUND', { message: '신고 접수 링크를 찾을 수 없습니다.' });
  return company;
}

/**
 * Starts an anonymous draft for a company. The row holds the company and an expiry, never who asked: a member
 * starting one while logged in is not recorded, so the report that comes of it joins no account.
 */
export async function createIntakeSession(
  database: Database,
  companyId: string,
): Promise<{ token: string; expires: number }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + INTAKE_SESSION_DAYS * 24 * HOUR * 1000);
  await database.db.insert(intakeSessions).values({ tokenHash: sha256Hex(token), companyId, expiresAt });
  return { token, expires: Math.floor(expiresAt.getTime() / 1000) };
}

/** Through a public intake link: the login captcha, and a cap per IP (under the process's visitor key only). */
export async function createPublicIntakeSession(
  deps: { database: Database; config: Config; captcha: CaptchaVerifier },
  code: string,
  captchaSolution: string | undefined,
  client: { visitorKey: string },
): Promise<{ token: string; expires: number; company: IntakeCompany }> {
  const ipKey = `intake-new:${client.visitorKey}`;
  if ((await countVisitorHit(deps.database, ipKey, HOUR)) > INTAKE_SESSIONS_PER_IP_PER_HOUR)
    throw rateLimited(HOUR);
  await deps.captcha.verify(captchaSolution);
  const company = await findCompanyByIntakeCode(deps, code, client);
  return { ...(await createIntakeSession(deps.database, company.id)), company };
}

/** The live intake session of a token; an unknown or expired one is 410 INTAKE_EXPIRED. */
export async function findIntakeSession(database: Database, token: string): Promise<IntakeSession> {
  const [row] =
    token.length <= 64
      ? await database.db
          .select({
            id: intakeSessions.id,
            companyId: intakeSessions.companyId,
            expiresAt: intakeSessions.expiresAt,
            submittedAt: intakeSessions.submittedAt,
            submission: intakeSessions.submission,
          })
          .from(intakeSessions)
          .where(eq(intakeSessions.tokenHash, sha256Hex(token)))
      : [];
  if (!row || row.expiresAt.getTime() <= Date.now()) throw new AppError('INTAKE_EXPIRED');
  return row;
}

/** An intake session that has not submitted yet: only such a one may upload or delete files. */
export async function findOpenIntakeSession(database: Database, token: string): Promise<IntakeSession> {
  const session = await findIntakeSession(database, token);
  if (session.submittedAt) throw new AppError('INTAKE_EXPIRED');
  return session;
}

/** The same session re-read, e.g. after a submission raced with a retry. */
export async function findIntakeSessionById(database: Database, id: string): Promise<IntakeSession> {
  const [row] = await database.db
    .select({
      id: intakeSessions.id,
      companyId: intakeSessions.companyId,
      submittedAt: intakeSessions.submittedAt,
      submission: intakeSessions.submission,
    })
    .from(intakeSessions)
    .where(eq(intakeSessions.id, id));
  if (!row) throw new AppError('INTAKE_EXPIRED');
  return row;
}

export async function companyName(database: Database, companyId: string): Promise<string> {
  const [row] = await database.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.name ?? '';
}

/** Expired drafts go with their uncited files' rows (the file sweep then removes the bytes). */
export async function pruneIntakeSessions(database: Database): Promise<void> {
  await database.db.delete(intakeSessions).where(sql`${intakeSessions.expiresAt} < now()`);
}
