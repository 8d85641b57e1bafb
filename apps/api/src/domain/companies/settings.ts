import { type CompanySettingsPatch, SETTINGS_LIMITS } from '@ansim/shared/company-settings';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { generateIntakeCode } from '../intake/intake-code.ts';
import type { HandlerContext } from '../manager/access.ts';
import { generateJoinCode } from './admin.ts';

type Executor = Pick<Db, 'update'>;

export interface CompanySettingsView {
  name: string;
  join_code: string | null;
  intake_code: string;
  intake_url: string;
  ack_deadline_days: number;
  feedback_deadline_days: number;
  retention_days: number;
  retention_set_by: string | null;
  retention_set_at: string | null;
  notice_contact: string;
  intake_help_text: string;
  limits: typeof SETTINGS_LIMITS;
}

async function readCompany(db: Pick<Db, 'select'>, companyId: string) {
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw new AppError('NOT_FOUND');
  return company;
}

export async function getCompanySettings(
  { database, config }: { database: Database; config: Config },
  companyId: string,
): Promise<CompanySettingsView> {
  const company = await readCompany(database.db, companyId);
  return {
    name: company.name,
    join_code: company.joinCode,
    intake_code: company.intakeCode,
    intake_url: `${config.PUBLIC_URL}/c/${company.intakeCode}`,
    ack_deadline_days: company.ackDeadlineDays,
    feedback_deadline_days: company.feedbackDeadlineDays,
    retention_days: company.retentionDays,
    retention_set_by: company.retentionSetBy,
    retention_set_at: company.retentionSetAt?.toISOString() ?? null,
    notice_contact: company.noticeContact,
    intake_help_text: company.intakeHelpText,
    limits: SETTINGS_LIMITS,
  };
}

function checkDays(value: number, limits: { min: number; max: number }, field: string): void {
  if (!Number.isInteger(value) || value < limits.min || value > limits.max)
    throw new AppError('VALIDATION_ERROR', {
      details: { [field]: `${limits.min}일에서 ${limits.max}일 사이로 입력해주세요.` },
    });
}

/**
 * The acknowledgement and feedback deadlines of new cases (docs/decisions/0002): both stored on each case at
 * receipt, so a change applies to cases received from now on. Feedback cannot come due before acknowledgement.
 */
export async function setCompanyDeadlines(
  database: Database,
  input: { companyId: string; ackDays: number; feedbackDays: number; by: string },
  executor: Executor = database.db,
): Promise<void> {
  checkDays(input.ackDays, SETTINGS_LIMITS.ackDays, 'ack_deadline_days');
  checkDays(input.feedbackDays, SETTINGS_LIMITS.feedbackDays, 'feedback_deadline_days');
  if (input.feedbackDays < input.ackDays)
    throw new AppError('VALIDATION_ERROR', {
      details: { feedback_deadline_days: '피드백 기한은 접수 확인 기한보다 짧을 수 없습니다.' },
    });
  await executor
    .update(companies)
    .set({ ackDeadlineDays: input.ackDays, feedbackDeadlineDays: input.feedbackDays })
    .where(eq(companies.id, input.companyId));
}

/**
 * The admin's settings form. One transaction and one audit row holding the old and new value of each number
 * that changed; for the two texts only that they changed (they are the company's own words, and may be long).
 */
export async function updateCompanySettings(
  deps: { database: Database; config: Config },
  admin: HandlerContext,
  patch: CompanySettingsPatch,
): Promise<CompanySettingsView> {
  const { database } = deps;
  await database.db.transaction(async (tx) => {
    const [before] = await tx.select().from(companies).where(eq(companies.id, admin.companyId)).for('update');
    if (!before) throw new AppError('NOT_FOUND');
    const detail: Record<string, unknown> = {};
    const ackDays = patch.ack_deadline_days ?? before.ackDeadlineDays;
    const feedbackDays = patch.feedback_deadline_days ?? before.feedbackDeadlineDays;
    if (ackDays !== before.ackDeadlineDays || feedbackDays !== before.feedbackDeadlineDays) {
      await setCompanyDeadlines(
        database,
        { companyId: admin.companyId, ackDays, feedbackDays, by: admin.userId },
        tx,
      );
      if (ackDays !== before.ackDeadlineDays)
        detail.ack_deadline_days = { from: before.ackDeadlineDays, to: ackDays };
      if (feedbackDays !== before.feedbackDeadlineDays)
        detail.feedback_deadline_days = { from: before.feedbackDeadlineDays, to: feedbackDays };
    }
    const changes: Partial<typeof companies.$inferInsert> = {};
    if (patch.retention_days !== undefined && patch.retention_days !== before.retentionDays) {
      checkDays(patch.retention_days, SETTINGS_LIMITS.retentionDays, 'retention_days');
      // Kept in every deletion record as who asked for the period (decision 0004): the admin, by name.
      Object.assign(changes, {
        retentionDays: patch.retention_days,
        retentionSetBy: `${admin.name} (관리자 설정)`,
        retentionSetAt: new Date(),
      });
      detail.retention_days = { from: before.retentionDays, to: patch.retention_days };
    }
    if (patch.notice_contact !== undefined && patch.notice_contact !== before.noticeContact) {
      changes.noticeContact = patch.notice_contact;
      detail.notice_contact = 'changed';
    }
    if (patch.intake_help_text !== undefined && patch.intake_help_text !== before.intakeHelpText) {
      changes.intakeHelpText = patch.intake_help_text;
      detail.intake_help_text = 'changed';
    }
    if (Object.keys(changes).length > 0)
      await tx.update(companies).set(changes).where(eq(companies.id, admin.companyId));
    if (Object.keys(detail).length > 0)
      await recordAudit(tx, {
        companyId: admin.companyId,
        actorId: admin.userId,
        action: 'company.settings',
        targetType: 'company',
        targetId: admin.companyId,
        detail,
      });
  });
  return getCompanySettings(deps, admin.companyId);
}

/**
 * A new join code; the old one stops working at once, for registrations and for accounts whose confirmation
 * is still pending with it (they fall back to their mail domain, as an unknown code does).
 */
export async function rotateJoinCode(database: Database, admin: HandlerContext): Promise<string> {
  return database.db.transaction(async (tx) => {
    const joinCode = generateJoinCode();
    await tx.update(companies).set({ joinCode }).where(eq(companies.id, admin.companyId));
    // The code itself stays out of the log: it is what lets people into the company.
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.join_code',
      targetType: 'company',
      targetId: admin.companyId,
      detail: { rotated: true },
    });
    return joinCode;
  });
}

/**
 * A new intake link code; the old link stops working at once (its page and new drafts answer 404; drafts already
 * started keep their own token). Recorded in the company's log, the code itself left out of it.
 */
export async function rotateIntakeCode(
  deps: { database: Database; config: Config },
  admin: HandlerContext,
): Promise<{ intake_code: string; intake_url: string }> {
  const intakeCode = generateIntakeCode();
  await deps.database.db.transaction(async (tx) => {
    await tx.update(companies).set({ intakeCode }).where(eq(companies.id, admin.companyId));
    await recordAudit(tx, {
      companyId: admin.companyId,
      actorId: admin.userId,
      action: 'company.intake_code',
      targetType: 'company',
      targetId: admin.companyId,
      detail: { rotated: true },
    });
  });
  return { intake_code: intakeCode, intake_url: `${deps.config.PUBLIC_URL}/c/${intakeCode}` };
}
