import { createHash, randomUUID } from 'node:crypto';
import { INVITATION_DAYS_DEFAULT, sendInvitationsBody } from '@ansim/shared/contract/manager';
import type { ReportForm } from '@ansim/shared/report-form';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { companies, files, invitations, reportFiles, reports, statements } from '../../db/schema.ts';
import { openJson, openText, sealJson, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { invitationMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { ManagerContext } from '../manager/case-scope.ts';
import { assertCaseOpen, findCompanyReport } from '../manager/case-view.ts';
import { announceCaseChange } from '../reports/case-events.ts';

type Deps = { database: Database; config: Config };
type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];
type InvitationRow = typeof invitations.$inferSelect;
/** One invitee's record: whom the manager asked, for which report, and where their answer stands. */
export type Invitation = InvitationRow;

export { INVITATION_DAYS_DEFAULT, sendInvitationsBody };

function seoulDate(date: Date): string {
  const local = new Date(date.getTime() + 9 * 3600 * 1000);
  return `${local.getUTCFullYear()}년 ${local.getUTCMonth() + 1}월 ${local.getUTCDate()}일`;
}

function invitationUrl(config: Config, kind: 'defendant' | 'reference', token: string): string {
  return `${config.PUBLIC_URL}/${kind}?token=${encodeURIComponent(token)}`;
}

async function queueInvitationMail(
  tx: Tx,
  config: Config,
  invitation: Pick<InvitationRow, 'kind' | 'name' | 'email' | 'expiresAt'>,
  token: string,
  report: { caseNumber: string; companyName: string },
) {
  await enqueueMail(
    tx,
    `invitation_${invitation.kind}`,
    invitation.email,
    invitationMail({
      kind: invitation.kind,
      name: invitation.name,
      companyName: report.companyName,
      caseNumber: report.caseNumber,
      dueDate: seoulDate(invitation.expiresAt),
      url: invitationUrl(config, invitation.kind, token),
    }),
  );
}

/** Marks in the reporter's form when the accused person or a named witness was mailed (spec §3 fields). */
function markSent(
  form: ReportForm,
  target: { kind: 'defendant' | 'reference'; witnessIndex: number | null },
  at: string,
): ReportForm {
  if (target.kind === 'defendant') return { ...form, perpetrator_email_sent_at: at };
  if (target.witnessIndex === null) return form;
  return {
    ...form,
    witnesses: form.witnesses.map((witness, index) =>
      index === target.witnessIndex ? { ...witness, email_sent_at: at } : witness,
    ),
  };
}

/**
 * Invites the accused person and witnesses by e-mail. Each invitation is its own record with its own token;
 * the mails are queued in the same transaction, and `*_email_sent_at` in the form is filled.
 */
export async function sendInvitations(
  { database, config }: Deps,
  manager: ManagerContext,
  reportId: string,
  input: z.infer<typeof sendInvitationsBody>,
): Promise<string[]> {
  const report = await findCompanyReport(database, manager, reportId);
  assertCaseOpen(report);
  const form = await openJson<ReportForm>(database, 'reports.form', report.id, report.form);
  const [company] = await database.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, manager.companyId));
  const expiresAt = new Date(Date.now() + input.expires_in_days * 86_400_000);
  const targets = input.invitations.map((target) => {
    if (target.kind === 'defendant') {
      const email = target.email ?? form.perpetrator_email;
      if (!email)
        throw new AppError('VALIDATION_ERROR', {
          details: { email: '피신고인의 이메일 주소가 없습니다. 주소를 입력해주세요.' },
        });
      return {
        kind: 'defendant' as const,
        name: form.perpetrator_name || '피신고인',
        email: email.toLowerCase(),
        witnessIndex: null,
      };
    }
    if ('witness_index' in target) {
      const witness = form.witnesses[target.witness_index];
      if (!witness?.email)
        throw new AppError('VALIDATION_ERROR', {
          details: { witness_index: '이메일 주소가 있는 참고인을 선택해주세요.' },
        });
      return {
        kind: 'reference' as const,
        name: witness.name || '참고인',
        email: witness.email.toLowerCase(),
        witnessIndex: target.witness_index,
      };
    }
    return {
      kind: 'reference' as const,
      name: target.name,
      email: target.email.toLowerCase(),
      witnessIndex: null,
    };
  });

  const now = new Date();
  const updatedForm = await sealJson(
    database,
    report.companyId,
    'reports.form',
    report.id,
    targets.reduce((marked, target) => markSent(marked, target, now.toISOString()), form),
  );
  const sealedTargets = await Promise.all(
    targets.map(async (target) => {
      const id = randomUUID();
      return {
        ...target,
        id,
        sealedName: await sealText(database, report.companyId, 'invitations.name', id, target.name),
        sealedEmail: await sealText(database, report.companyId, 'invitations.email', id, target.email),
      };
    }),
  );
  const ids = await database.db.transaction(async (tx) => {
    const created: string[] = [];
    for (const target of sealedTargets) {
      const token = randomToken();
      const [row] = await tx
        .insert(invitations)
        .values({
          id: target.id,
          reportId,
          kind: target.kind,
          name: target.sealedName,
          email: target.sealedEmail,
          witnessIndex: target.witnessIndex,
          tokenHash: sha256Hex(token),
          shareEvidence: target.kind === 'defendant' && input.share_evidence,
          expiresAt,
          sentAt: now,
          createdBy: manager.userId,
        })
        .returning();
      await queueInvitationMail(tx, config, { ...row!, name: target.name, email: target.email }, token, {
        caseNumber: report.caseNumber,
        companyName: company?.name ?? '',
      });
      await recordAudit(tx, {
        companyId: manager.companyId,
        actorId: manager.userId,
        action: 'invitation.send',
        targetType: 'report',
        targetId: reportId,
      });
      created.push(row!.id);
    }
    await tx.update(reports).set({ form: updatedForm, updatedAt: now }).where(eq(reports.id, reportId));
    await announceCaseChange(tx, reportId);
    return created;
  });
  wakeMailWorkers();
  return ids;
}

async function findCompanyInvitation(
  database: Database,
  manager: ManagerContext,
  reportId: string,
  invitationId: string,
) {
  const report = await findCompanyReport(database, manager, reportId);
  // Resending and revoking change who may still give a statement: not on an ended case.
  assertCaseOpen(report);
  const [row] = await database.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.reportId, report.id)));
  if (!row) throw new AppError('NOT_FOUND');
  return { report, invitation: row };
}

/** A new link replaces the old one (which stops working), and the invitee may answer again. */
export async function resendInvitation(
  { database, config }: Deps,
  manager: ManagerContext,
  reportId: string,
  invitationId: string,
): Promise<void> {
  const { report, invitation } = await findCompanyInvitation(database, manager, reportId, invitationId);
  const [company] = await database.db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, manager.companyId));
  const token = randomToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS_DEFAULT * 86_400_000);
  const form = await openJson<ReportForm>(database, 'reports.form', report.id, report.form);
  const updatedForm = await sealJson(
    database,
    report.companyId,
    'reports.form',
    report.id,
    markSent(form, invitation, now.toISOString()),
  );
  const invitee = {
    ...invitation,
    name: await openText(database, 'invitations.name', invitation.id, invitation.name),
    email: await openText(database, 'invitations.email', invitation.id, invitation.email),
  };
  await database.db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({
        tokenHash: sha256Hex(token),
        expiresAt,
        sentAt: now,
        revokedAt: null,
        respondedAt: null,
        acknowledgedAt: null,
        openedAt: null,
      })
      .where(eq(invitations.id, invitationId));
    await queueInvitationMail(tx, config, { ...invitee, expiresAt }, token, {
      caseNumber: report.caseNumber,
      companyName: company?.name ?? '',
    });
    await tx.update(reports).set({ form: updatedForm, updatedAt: now }).where(eq(reports.id, reportId));
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'invitation.send',
      targetType: 'report',
      targetId: reportId,
    });
    await announceCaseChange(tx, reportId);
  });
  wakeMailWorkers();
}

export async function revokeInvitation(
  { database }: Deps,
  manager: ManagerContext,
  reportId: string,
  invitationId: string,
): Promise<void> {
  await findCompanyInvitation(database, manager, reportId, invitationId);
  await database.db.transaction(async (tx) => {
    await tx.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, invitationId));
    await recordAudit(tx, {
      companyId: manager.companyId,
      actorId: manager.userId,
      action: 'invitation.revoke',
      targetType: 'report',
      targetId: reportId,
    });
    await announceCaseChange(tx, reportId);
  });
}

/**
 * The invitation a token opens. Unknown and revoked tokens are the same 404; an expired one is 410 so the
 * page can say to ask for a new link. A token reaches only its own invitation.
 */
export async function findInvitationByToken(
  database: Database,
  token: string | undefined,
): Promise<InvitationRow> {
  if (!token || token.length > 100) throw new AppError('NOT_FOUND');
  const [row] = await database.db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, sha256Hex(token)));
  if (!row || row.revokedAt) throw new AppError('NOT_FOUND');
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('INVITATION_EXPIRED');
  return row;
}

export interface InvitationView {
  kind: 'defendant' | 'reference';
  invitee_name: string;
  company_name: string;
  case_number: string;
  expires_at: string;
  acknowledged_at: string | null;
  responded_at: string | null;
  accused_name: string;
  /** What happened, as alleged: dates, places and descriptions only — never who reported it. */
  acts: {
    date: string;
    location: string;
    description: string;
    evidences: { id: string; name: string; content_type: string; size: number }[];
  }[];
}

export async function viewInvitation(database: Database, token: string): Promise<InvitationView> {
  const invitation = await findInvitationByToken(database, token);
  if (!invitation.openedAt)
    await database.db
      .update(invitations)
      .set({ openedAt: new Date() })
      .where(eq(invitations.id, invitation.id));
  const [report] = await database.db
    .select({
      id: reports.id,
      form: reports.form,
      caseNumber: reports.caseNumber,
      companyName: companies.name,
    })
    .from(reports)
    .innerJoin(companies, eq(companies.id, reports.companyId))
    .where(eq(reports.id, invitation.reportId));
  if (!report) throw new AppError('NOT_FOUND');
  const form = await openJson<ReportForm>(database, 'reports.form', report.id, report.form);
  const shared = invitation.kind === 'defendant' && invitation.shareEvidence;
  const fileIds = shared ? [...new Set(form.acts.flatMap((act) => act.evidences ?? []))] : [];
  const sharedFiles = fileIds.length
    ? await database.db
        .select({ id: files.id, contentType: files.contentType, size: files.size })
        .from(reportFiles)
        .innerJoin(files, eq(files.id, reportFiles.fileId))
        .where(and(eq(reportFiles.reportId, invitation.reportId), inArray(files.id, fileIds)))
    : [];
  const byId = new Map(sharedFiles.map((file) => [file.id, file]));
  let counter = 0;
  return {
    kind: invitation.kind,
    invitee_name: await openText(database, 'invitations.name', invitation.id, invitation.name),
    company_name: report.companyName,
    case_number: report.caseNumber,
    expires_at: invitation.expiresAt.toISOString(),
    acknowledged_at: invitation.acknowledgedAt?.toISOString() ?? null,
    responded_at: invitation.respondedAt?.toISOString() ?? null,
    accused_name: form.perpetrator_name,
    acts: form.acts.map((act) => ({
      date: act.date,
      location: act.location,
      description: act.description,
      evidences: (act.evidences ?? []).flatMap((id) => {
        const file = byId.get(id);
        if (!file) return [];
        counter += 1;
        // Generic names: an uploaded file name could tell the accused who reported.
        return [{ id, name: `증거자료-${counter}`, content_type: file.contentType, size: file.size }];
      }),
    })),
  };
}

export async function acknowledgeInvitation(
  database: Database,
  invitation: Invitation,
): Promise<{ acknowledged_at: string }> {
  const at = invitation.acknowledgedAt ?? new Date();
  if (!invitation.acknowledgedAt) {
    await database.db.transaction(async (tx) => {
      await tx.update(invitations).set({ acknowledgedAt: at }).where(eq(invitations.id, invitation.id));
      await announceCaseChange(tx, invitation.reportId);
    });
  }
  return { acknowledged_at: at.toISOString() };
}

/** The statement fields an invitee of each kind may submit; everything else in the form is dropped. */
function statementFields(kind: 'defendant' | 'reference', form: ReportForm): Record<string, unknown> {
  if (kind === 'defendant') {
    return {
      report_type: 'defendant',
      reporter_name: form.reporter_name,
      reporter_role: form.reporter_role,
      reporter_department: form.reporter_department,
      reporter_tenure: form.reporter_tenure,
      defendant_truth: form.defendant_truth,
      defendant_true_part: form.defendant_true_part,
      defendant_false_part: form.defendant_false_part,
      defendant_opinion: form.defendant_opinion,
      defendant_extra_info: form.defendant_extra_info,
      defendant_evidences: form.defendant_evidences,
      defendant_witnesses: form.defendant_witnesses.map((witness) => ({ ...witness, email_sent_at: null })),
    };
  }
  return {
    report_type: 'reference',
    reference_witnessed: form.reference_witnessed,
    reference_memory: form.reference_memory,
    reference_opinion: form.reference_opinion,
    reference_evidences: form.reference_evidences,
  };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Attaches an invitee's statement to the invitation's report. One statement per link: a second one is 409
 * until the manager re-sends the invitation. The SHA-256 of the stored statement is the invitee's receipt.
 */
export async function submitStatement(
  database: Database,
  invitation: Invitation,
  form: ReportForm,
): Promise<{ id: string; sha256: string }> {
  if (form.report_type !== invitation.kind) {
    throw new AppError('VALIDATION_ERROR', { details: { report_type: '요청받은 진술 유형과 다릅니다.' } });
  }
  if (!invitation.acknowledgedAt)
    throw new AppError('CONFLICT', { message: '먼저 비밀유지 의무를 확인해주세요.' });
  const stored = statementFields(invitation.kind, form);
  const evidenceIds = ((invitation.kind === 'defendant'
    ? form.defendant_evidences
    : form.reference_evidences) ?? []) as string[];
  if (evidenceIds.length > 0) {
    const owned = await database.db
      .select({ id: files.id })
      .from(files)
      .where(and(inArray(files.id, evidenceIds), eq(files.ownerInvitationId, invitation.id)));
    if (owned.length !== new Set(evidenceIds).size) {
      throw new AppError('VALIDATION_ERROR', {
        details: { evidences: '이 요청 링크로 올린 파일만 첨부할 수 있습니다.' },
      });
    }
  }
  // The receipt is of the statement itself, not of its sealed form, so the invitee can check it.
  const sha256 = createHash('sha256').update(canonicalJson(stored)).digest('hex');
  const [owner] = await database.db
    .select({ companyId: reports.companyId })
    .from(reports)
    .where(eq(reports.id, invitation.reportId));
  const statementId = randomUUID();
  const sealed = await sealJson(database, owner?.companyId ?? null, 'statements.form', statementId, stored);
  return database.db.transaction(async (tx) => {
    // Claiming the invitation and saving the statement happen together, so two submissions cannot both win.
    const [claimed] = await tx
      .update(invitations)
      .set({ respondedAt: new Date() })
      .where(
        and(
          eq(invitations.id, invitation.id),
          eq(invitations.tokenHash, invitation.tokenHash),
          isNull(invitations.respondedAt),
        ),
      )
      .returning({ id: invitations.id });
    if (!claimed) {
      // The very same statement again is a retry whose answer was lost: give back the receipt, not an error.
      const [previous] = await tx
        .select({ id: statements.id, sha256: statements.sha256 })
        .from(statements)
        .where(eq(statements.invitationId, invitation.id))
        .orderBy(desc(statements.createdAt))
        .limit(1);
      if (previous?.sha256 === sha256) return { id: previous.id, sha256 };
      throw new AppError('ALREADY_SUBMITTED');
    }
    const [row] = await tx
      .insert(statements)
      .values({
        id: statementId,
        invitationId: invitation.id,
        reportId: invitation.reportId,
        kind: invitation.kind,
        form: sealed,
        sha256,
      })
      .returning({ id: statements.id });
    await announceCaseChange(tx, invitation.reportId);
    return { id: row!.id, sha256 };
  });
}
