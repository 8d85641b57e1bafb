import { HANDLER_ROLES, type HandlerRole } from '@ansim/shared/constants';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { companies, reports, users } from '../../db/schema.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { type DigestEntry, deadlineDigestMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { caseAccessCondition } from './case-scope.ts';

export const DIGEST_TEMPLATE = 'deadline_digest';
const DAY_MS = 86_400_000;
const KST_OFFSET_MS = 9 * 3_600_000;
const DIGEST_HORIZON_DAYS = 7;

/** The Korean calendar day of a moment, YYYY-MM-DD. */
const kstDate = (at: Date) => new Date(at.getTime() + KST_OFFSET_MS).toISOString().slice(0, 10);
/** Midnight in Korea of the day `at` falls on. */
const kstDayStart = (at: Date) => new Date(Date.parse(`${kstDate(at)}T00:00:00+09:00`));

/** The open cases this handler may see with a deadline not yet met that is past or within the next 7 days. */
async function digestEntries(
  database: Database,
  handler: { userId: string; name: string; companyId: string; role: HandlerRole },
  now: Date,
): Promise<DigestEntry[]> {
  const horizon = new Date(now.getTime() + DIGEST_HORIZON_DAYS * DAY_MS);
  const rows = await database.db
    .select({
      caseNumber: reports.caseNumber,
      acknowledgedAt: reports.acknowledgedAt,
      feedbackAt: reports.feedbackAt,
      ackDueAt: reports.ackDueAt,
      feedbackDueAt: reports.feedbackDueAt,
    })
    .from(reports)
    .where(
      and(
        caseAccessCondition(handler),
        isNull(reports.closedAt),
        or(
          and(isNull(reports.acknowledgedAt), lt(reports.ackDueAt, horizon)),
          and(isNull(reports.feedbackAt), lt(reports.feedbackDueAt, horizon)),
        ),
      ),
    )
    .orderBy(asc(reports.caseNumber));
  return rows.flatMap((row) => {
    const entries: DigestEntry[] = [];
    if (!row.acknowledgedAt && row.ackDueAt < horizon)
      entries.push({
        caseNumber: row.caseNumber,
        deadline: 'ack',
        dueDate: kstDate(row.ackDueAt),
        isOverdue: row.ackDueAt < now,
      });
    if (!row.feedbackAt && row.feedbackDueAt < horizon)
      entries.push({
        caseNumber: row.caseNumber,
        deadline: 'feedback',
        dueDate: kstDate(row.feedbackDueAt),
        isOverdue: row.feedbackDueAt < now,
      });
    return entries;
  });
}

/**
 * The daily deadline digest (decision 0002): every handler of an active company who has not had one today (Korean
 * day) and has something overdue or due within 7 days gets one mail, for the cases they may see (investigators:
 * assigned; managers and admins: all; never one they are excluded from). `digest_sent_at` is claimed in the
 * mail's transaction, so several API processes running the job send it once. Returns how many were queued.
 */
export async function sendDeadlineDigests(
  database: Database,
  config: Config,
  now = new Date(),
): Promise<number> {
  const dayStart = kstDayStart(now);
  const handlers = await database.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      companyId: users.companyId,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        inArray(users.role, [...HANDLER_ROLES]),
        isNotNull(users.companyId),
        isNull(companies.suspendedAt),
        or(isNull(users.digestSentAt), lt(users.digestSentAt, dayStart)),
      ),
    );
  let queued = 0;
  for (const person of handlers) {
    const role = person.role as HandlerRole;
    const entries = await digestEntries(
      database,
      { userId: person.id, name: person.name, companyId: person.companyId!, role },
      now,
    );
    if (entries.length === 0) continue;
    const sent = await database.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(users)
        .set({ digestSentAt: now })
        .where(and(eq(users.id, person.id), or(isNull(users.digestSentAt), lt(users.digestSentAt, dayStart))))
        .returning({ id: users.id });
      if (!claimed) return false;
      await enqueueMail(
        tx,
        DIGEST_TEMPLATE,
        person.email,
        deadlineDigestMail({ entries, url: `${config.PUBLIC_URL}/manager` }),
      );
      return true;
    });
    if (sent) queued++;
  }
  if (queued > 0) wakeMailWorkers();
  return queued;
}
