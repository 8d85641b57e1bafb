import { randomUUID } from 'node:crypto';
import { INVITATION_DAYS_DEFAULT, sendInvitationsBody } from '@ansim/shared/contract/manager';
import type { ReportForm } from '@ansim/shared/report-form';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { companies, invitations, reports } from '../../db/schema.ts';
import { openJson, openText, sealJson, sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { randomToken, sha256Hex } from '../../lib/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { invitationMail } from '../../mail/templates.ts';
import { wakeMailWorkers } from '../../mail/worker.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { assertCaseOpen, findCompanyReport, type ManagerContext } from '../manager/case-scope.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import { findCompanyInvitation, type Invitation } from './find-invitation.ts';

type Deps = { database: Database; config: Config };
type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

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
  invitation: Pick<Invitation, 'kind' | 'name' | 'email' | 'expiresAt'>,
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

/** Marks in the reporter's form when the accused person or a named witness was mailed (R-WIZ-4, R-INV-1). */
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
