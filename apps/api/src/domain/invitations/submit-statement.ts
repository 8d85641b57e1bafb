import { createHash, randomUUID } from 'node:crypto';
import type { ReportForm } from '@ansim/shared/report-form';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { files, invitations, reports, statements } from '../../db/schema.ts';
import { sealJson } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import type { Invitation } from './find-invitation.ts';

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
