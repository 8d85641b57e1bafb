import type { measureOpinionBody } from '@ansim/shared/contract/report';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { protectiveMeasures } from '../../db/schema.ts';
import { sealText } from '../../encryption/codec.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { assertCaseOpen } from '../manager/case-scope.ts';
import { announceCaseChange } from './case-events.ts';
import { findOwnReport, type ReporterAccess } from './reporter-reports.ts';

/**
 * The reporter agrees to a measure or objects to it, in their own words if they wish (근로기준법 제76조의3 ③④:
 * measures hear the victim's opinion and must not go against their will). The answer can be changed while the
 * case is open; the latest one and its time are kept.
 */
export async function recordMeasureOpinion(
  { database }: { database: Database },
  access: ReporterAccess,
  reportId: string,
  measureId: string,
  input: z.infer<typeof measureOpinionBody>,
): Promise<void> {
  const report = await findOwnReport(database, access, reportId);
  assertCaseOpen(report);
  const opinion = await sealText(
    database,
    report.companyId,
    'protective_measures.reporter_opinion',
    measureId,
    input.opinion,
  );
  await database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(protectiveMeasures)
      .set({ reporterConsent: input.consent, reporterOpinion: opinion, reporterOpinionAt: new Date() })
      .where(and(eq(protectiveMeasures.id, measureId), eq(protectiveMeasures.reportId, reportId)))
      .returning({ id: protectiveMeasures.id });
    if (!row) throw new AppError('NOT_FOUND');
    // No actor: the reporter of an anonymous case must not be traceable through the audit log.
    await recordAudit(tx, {
      companyId: report.companyId,
      actorId: null,
      action: 'measure.opinion',
      targetType: 'report',
      targetId: reportId,
      detail: { consent: input.consent },
    });
    await announceCaseChange(tx, reportId);
  });
}
