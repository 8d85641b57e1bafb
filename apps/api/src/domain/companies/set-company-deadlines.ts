import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';

/** Days to acknowledge a new case (first status change or note to the reporter). */
export const ACK_DAYS_RANGE = { min: 1, max: 30 } as const;
/** Days to give the reporter feedback (a recorded outcome or a note marked as feedback); 3 months by default. */
export const FEEDBACK_DAYS_RANGE = { min: 7, max: 180 } as const;

const inRange = (value: number, range: { min: number; max: number }) =>
  Number.isInteger(value) && value >= range.min && value <= range.max;

/**
 * The company's two deadlines, in days (docs/decisions/0002). They apply to cases received from now on: a case
 * already received keeps the dates it was given, so no deadline moves under a case that is being handled.
 * Audited as `company.settings` with the old and new values; `by` is null when the operator's CLI sets them.
 */
export async function setCompanyDeadlines(
  database: Database,
  input: { companyId: string; ackDays: number; feedbackDays: number; by: string | null },
): Promise<{ companyName: string; previous: { ackDays: number; feedbackDays: number } }> {
  const details: Record<string, string> = {};
  if (!inRange(input.ackDays, ACK_DAYS_RANGE))
    details.ack_days = `확인 기한은 ${ACK_DAYS_RANGE.min}일에서 ${ACK_DAYS_RANGE.max}일 사이로 정해주세요.`;
  if (!inRange(input.feedbackDays, FEEDBACK_DAYS_RANGE))
    details.feedback_days = `결과 통지 기한은 ${FEEDBACK_DAYS_RANGE.min}일에서 ${FEEDBACK_DAYS_RANGE.max}일 사이로 정해주세요.`;
  else if (!details.ack_days && input.feedbackDays < input.ackDays)
    details.feedback_days = '결과 통지 기한은 확인 기한보다 짧을 수 없습니다.';
  if (Object.keys(details).length > 0)
    throw new AppError('VALIDATION_ERROR', { message: Object.values(details).join(' '), details });
  return database.db.transaction(async (tx) => {
    const [before] = /^[0-9a-f-]{36}$/i.test(input.companyId)
      ? await tx
          .select({
            name: companies.name,
            ackDays: companies.ackDeadlineDays,
            feedbackDays: companies.feedbackDeadlineDays,
          })
          .from(companies)
          .where(eq(companies.id, input.companyId))
          .for('update')
      : [];
    if (!before) throw new AppError('NOT_FOUND');
    await tx
      .update(companies)
      .set({ ackDeadlineDays: input.ackDays, feedbackDeadlineDays: input.feedbackDays })
      .where(eq(companies.id, input.companyId));
    await recordAudit(tx, {
      companyId: input.companyId,
      actorId: input.by,
      action: 'company.settings',
      targetType: 'company',
      targetId: input.companyId,
      detail: {
        setting: 'deadlines',
        old: { ack_days: before.ackDays, feedback_days: before.feedbackDays },
        new: { ack_days: input.ackDays, feedback_days: input.feedbackDays },
      },
    });
    return {
      companyName: before.name,
      previous: { ackDays: before.ackDays, feedbackDays: before.feedbackDays },
    };
  });
}
