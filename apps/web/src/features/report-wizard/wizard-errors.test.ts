import { stepErrors } from '@ansim/shared/report-form';
import { describe, expect, it } from 'vitest';
import { emptyReportForm } from '../../stores/report-form';
import { formErrors, stepOfFirstError } from './wizard-errors';

describe('wizard validation wiring', () => {
  it('an empty first step is blocked with Korean messages on its own fields only', () => {
    const form = { ...emptyReportForm(), report_type: 'brief' as const };
    expect(stepErrors(form, 'parties')).toEqual({
      reporter_type: '필수 입력 항목입니다.',
      reporter_name: '필수 입력 항목입니다.',
      perpetrator_name: '필수 입력 항목입니다.',
    });
  });

  it('anonymous reports do not ask for the reporter name', () => {
    const form = {
      ...emptyReportForm(),
      report_type: 'anonym' as const,
      reporter_type: 'victim' as const,
      perpetrator_name: '김부장',
    };
    expect(stepErrors(form, 'parties')).toEqual({});
  });

  it('maps error paths to the step that edits them, per type', () => {
    expect(stepOfFirstError('formal', ['acts.0.description'])).toBe(1);
    expect(stepOfFirstError('formal', ['protection_etc'])).toBe(3);
    expect(stepOfFirstError('formal', ['witnesses.1.name'])).toBe(4);
    expect(stepOfFirstError('brief', ['extra_info'])).toBe(3);
    expect(stepOfFirstError('anonym', ['concerns.0.concern'])).toBe(3);
    expect(stepOfFirstError('anonym', ['unknown_field'])).toBeNull();
  });

  it('formErrors lists the whole draft in order, acts before harms', () => {
    const form = {
      ...emptyReportForm(),
      report_type: 'formal' as const,
      reporter_type: 'victim' as const,
      reporter_name: '홍길동',
      perpetrator_name: '김부장',
      harms: [{ type: '' as const, description: '', evidences: null }],
    };
    expect(Object.keys(formErrors(form))).toEqual(['acts', 'harms.0.type']);
  });
});
