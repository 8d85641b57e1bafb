import { describe, expect, it } from 'vitest';
import { STEPS_BY_TYPE } from './constants.ts';
import {
  emptyReportForm,
  REPORT_LIMITS,
  reportFormSchema,
  reportSubmissionSchema,
  stepErrors,
} from './report-form.ts';

const validAct = {
  date: '2026-10-01',
  location: '3층 회의실',
  description: '회의 중 고성과 모욕',
  evidences: null,
};

function formal() {
  return {
    ...emptyReportForm(),
    report_type: 'formal' as const,
    reporter_type: 'victim' as const,
    reporter_name: '김신고',
    perpetrator_name: '박행위',
    acts: [validAct],
  };
}

describe('report form schema', () => {
  it('has the R-WIZ-4 defaults: strings empty, lists empty, nullables null', () => {
    const form = emptyReportForm();
    expect(form.report_type).toBe('');
    expect(form.acts).toEqual([]);
    expect(form.perpetrator_email).toBeNull();
    expect(form.defendant_evidences).toBeNull();
    expect(form.last_edit).toBeNull();
    expect(Object.keys(form)).toHaveLength(34);
  });

  it('accepts every allowed report type and empty, and nothing else', () => {
    for (const type of ['', 'anonym', 'brief', 'formal', 'reference', 'defendant']) {
      expect(reportFormSchema.safeParse({ report_type: type }).success).toBe(true);
    }
    expect(reportFormSchema.safeParse({ report_type: 'secret' }).success).toBe(false);
  });

  it('bounds strings and lists', () => {
    expect(reportFormSchema.safeParse({ extra_info: 'a'.repeat(REPORT_LIMITS.longText + 1) }).success).toBe(
      false,
    );
    expect(
      reportFormSchema.safeParse({ perpetrator_name: 'a'.repeat(REPORT_LIMITS.shortText + 1) }).success,
    ).toBe(false);
    expect(reportFormSchema.safeParse({ acts: Array(REPORT_LIMITS.acts + 1).fill(validAct) }).success).toBe(
      false,
    );
    expect(reportFormSchema.safeParse({ acts: [{ ...validAct, evidences: ['not-a-uuid'] }] }).success).toBe(
      false,
    );
    expect(reportFormSchema.safeParse({ perpetrator_email: 'nope' }).success).toBe(false);
    expect(reportFormSchema.parse({ perpetrator_email: '' }).perpetrator_email).toBeNull();
  });

  it('needs a type, the accused and an act to submit', () => {
    expect(reportSubmissionSchema.safeParse(formal()).success).toBe(true);
    const result = reportSubmissionSchema.safeParse({ ...formal(), perpetrator_name: ' ', acts: [] });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['perpetrator_name', 'acts']));
    expect(reportSubmissionSchema.safeParse({ ...formal(), report_type: '' }).error!.issues[0]!.message).toBe(
      '신고 유형을 선택해주세요.',
    );
  });

  it('refuses reporter identity in an anonymous report and demands a name in a formal one', () => {
    const anonym = { ...formal(), report_type: 'anonym' as const };
    expect(reportSubmissionSchema.safeParse(anonym).success).toBe(false);
    expect(reportSubmissionSchema.safeParse({ ...anonym, reporter_name: '' }).success).toBe(true);
    expect(reportSubmissionSchema.safeParse({ ...formal(), reporter_name: '' }).success).toBe(false);
  });

  it('reports errors per wizard step', () => {
    const form = { ...formal(), acts: [{ ...validAct, description: '' }] };
    expect(stepErrors(form, 'parties')).toEqual({});
    expect(stepErrors(form, 'acts')).toEqual({ 'acts.0.description': '필수 입력 항목입니다.' });
    expect(STEPS_BY_TYPE.formal).toHaveLength(5);
    expect(STEPS_BY_TYPE.anonym).toHaveLength(4);
    expect(STEPS_BY_TYPE.brief).toHaveLength(4);
    expect(STEPS_BY_TYPE.reference).toHaveLength(1);
    expect(STEPS_BY_TYPE.defendant).toHaveLength(3);
  });
});
