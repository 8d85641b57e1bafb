import type { ReportForm } from '@ansim/shared/report-form';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { companies, files, invitations, reportFiles, reports } from '../../db/schema.ts';
import { openJson, openText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { announceCaseChange } from '../reports/case-events.ts';
import { findInvitationByToken, type Invitation } from './find-invitation.ts';

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
        .where(
          and(
            eq(reportFiles.reportId, invitation.reportId),
            inArray(files.id, fileIds),
            // A file whose metadata could not be removed may still name the reporter: never shared.
            ne(files.metadataStatus, 'unremovable'),
          ),
        )
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

/**
 * The invitee confirms the duty of confidentiality on their page; only then may they submit a statement. The
 * first confirmation's time is kept, so reloading the page does not move it.
 */
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
