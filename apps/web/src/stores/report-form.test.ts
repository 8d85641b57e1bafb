import { REPORT_STATUS_LABELS_KO, REPORT_TYPE_LABELS_KO, STEP_LABELS_KO } from '@ansim/shared/constants';
import {
  HARM_TYPE_LABELS_KO,
  PROTECTION_LABELS_KO,
  RELATIONSHIP_OPTIONS_KO,
  REPORTER_KIND_LABELS_KO,
  emptyReportForm as schemaDefaults,
  WISH_LABELS_KO,
} from '@ansim/shared/report-form';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import baseKo from '../locales/ko.json';
import reporterKo from '../locales/ko.report.json';
import { emptyReportForm, evidenceIds, REPORT_FORM_FIELDS } from './report-form';

describe('report form definition', () => {
  it('has exactly the defaults of the shared zod schema', () => {
    expect(emptyReportForm()).toEqual(schemaDefaults());
    expect([...REPORT_FORM_FIELDS].sort()).toEqual(Object.keys(schemaDefaults()).sort());
  });

  it('lists every evidence id of acts and harms', () => {
    expect(
      evidenceIds({
        acts: [{ date: '', location: '', description: '', evidences: ['a', 'b'] }],
        harms: [
          { type: '', description: '', evidences: null },
          { type: 'mental', description: '', evidences: ['c'] },
        ],
      }),
    ).toEqual(['a', 'b', 'c']);
  });
});

const ko = {
  ...baseKo,
  ...reporterKo,
  wizard: { ...baseKo.wizard, ...reporterKo.wizard },
} as typeof baseKo & typeof reporterKo;

describe('Korean option labels', () => {
  it('match the shared catalogue, so the wizard and the server say the same thing', () => {
    expect(ko.options.reporterKinds).toEqual(REPORTER_KIND_LABELS_KO);
    expect(ko.options.harmTypes).toEqual(HARM_TYPE_LABELS_KO);
    expect(ko.options.wishes).toEqual(WISH_LABELS_KO);
    expect(ko.options.protection).toEqual(PROTECTION_LABELS_KO);
    expect(Object.keys(ko.options.relationships)).toEqual([...RELATIONSHIP_OPTIONS_KO]);
    expect(ko.statuses).toEqual(REPORT_STATUS_LABELS_KO);
    expect(ko.reportTypes).toEqual(REPORT_TYPE_LABELS_KO);
    expect(ko.steps).toEqual(STEP_LABELS_KO);
    expect(ko.wizard.submitSuccess).toBe('신고가 성공적으로 접수되었습니다.');
    expect(ko.wizard.userNotFound).toBe('사용자 계정을 찾을 수 없습니다.');
    expect(ko.wizard.noType).toBe('신고 유형을 선택해주세요.');
  });

  it('have an English entry for every Korean one', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`))
        : [prefix.slice(0, -1)];
    const english = new Set(keys(en).map((key) => key.replace(/_(one|other)$/, '')));
    const sections = ['wizard', 'parties', 'options', 'acts', 'harms', 'concerns', 'witnesses', 'protection'];
    const missing = keys(ko)
      .filter((key) =>
        [...sections, 'evidence', 'summary', 'statuses', 'reportDetail'].includes(key.split('.')[0]!),
      )
      .filter((key) => !english.has(key.replace(/_(one|other)$/, '')));
    expect(missing).toEqual([]);
  });
});
