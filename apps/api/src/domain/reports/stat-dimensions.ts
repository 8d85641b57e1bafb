import { RELATIONSHIP_OPTIONS_KO, type ReportForm } from '@ansim/shared/report-form';

/** The longest department name kept for the statistics; longer ones are cut (docs/decisions/0012). */
export const STATS_DEPARTMENT_MAX = 100;
const OTHER_RELATIONSHIP = '기타';

/**
 * The two statistics dimensions that live inside the sealed form, as the plaintext columns
 * `reports.accused_department` and `reports.relationship` keep them: the department trimmed, its spaces
 * collapsed and cut to 100 characters; the relationship one of the listed answers, any free answer as
 * '기타' (its text stays sealed). '' when not given.
 */
export function statsDimensions(form: Pick<ReportForm, 'perpetrator_department' | 'relationship'>): {
  accusedDepartment: string;
  relationship: string;
} {
  const department = form.perpetrator_department.normalize('NFC').replace(/\s+/gu, ' ').trim();
  const relationship = form.relationship.trim();
  return {
    accusedDepartment: [...department].slice(0, STATS_DEPARTMENT_MAX).join(''),
    relationship:
      relationship === ''
        ? ''
        : (RELATIONSHIP_OPTIONS_KO as readonly string[]).includes(relationship)
          ? relationship
          : OTHER_RELATIONSHIP,
  };
}
