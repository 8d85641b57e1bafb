import { describe, expect, it } from 'vitest';
import { CASE_FIELD_MESSAGES_KO } from '../case-messages.ko.ts';
import { measureUpdateBodyFor, statusChangeBodyFrom } from './manager.ts';

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.success ? [] : result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));

const OUTCOME = { finding: 'substantiated', actions: ['warning'] } as const;

describe('a status change judged against the current status', () => {
  it('asks for a status in words, and names a wrong one as wrong', () => {
    expect(issuesOf(statusChangeBodyFrom('received').safeParse({}))).toEqual([
      ['status', CASE_FIELD_MESSAGES_KO.statusRequired],
    ]);
    expect(issuesOf(statusChangeBodyFrom('received').safeParse({ status: 'done' }))).toEqual([
      ['status', '올바르지 않은 상태입니다.'],
    ]);
  });

  it('needs a written reason to reopen an ended case, and none for other steps', () => {
    for (const from of ['closed', 'dismissed'] as const) {
      expect(
        issuesOf(statusChangeBodyFrom(from).safeParse({ status: 'investigating', internal_note: '  ' })),
      ).toEqual([['internal_note', CASE_FIELD_MESSAGES_KO.reopenReasonRequired]]);
    }
    expect(statusChangeBodyFrom('received').safeParse({ status: 'investigating' }).success).toBe(true);
  });

  it('needs the outcome to take action or to close an investigation, and takes it on no other step', () => {
    expect(issuesOf(statusChangeBodyFrom('investigating').safeParse({ status: 'action_taken' }))).toEqual([
      ['outcome', CASE_FIELD_MESSAGES_KO.outcomeRequired],
    ]);
    expect(issuesOf(statusChangeBodyFrom('investigating').safeParse({ status: 'closed' }))).toEqual([
      ['outcome', CASE_FIELD_MESSAGES_KO.outcomeRequired],
    ]);
    // Closing after action was taken: the outcome is already on record.
    expect(statusChangeBodyFrom('action_taken').safeParse({ status: 'closed' }).success).toBe(true);
    expect(
      issuesOf(statusChangeBodyFrom('received').safeParse({ status: 'investigating', outcome: OUTCOME })),
    ).toEqual([['outcome', CASE_FIELD_MESSAGES_KO.outcomeNotHere]]);
  });

  it('names the missing finding and actions of an outcome', () => {
    const result = statusChangeBodyFrom('investigating').safeParse({
      status: 'action_taken',
      outcome: { actions: [] },
    });
    expect(issuesOf(result)).toEqual([
      ['outcome.finding', CASE_FIELD_MESSAGES_KO.findingRequired],
      ['outcome.actions', CASE_FIELD_MESSAGES_KO.actionsRequired],
    ]);
  });
});

describe('a measure decision judged against the measure on record', () => {
  const objected = { reporter_consent: false, reason: '' };

  it('needs a reason to carry out a measure the reporter objected to', () => {
    expect(issuesOf(measureUpdateBodyFor(objected).safeParse({ decision: 'granted', reason: '  ' }))).toEqual(
      [['reason', CASE_FIELD_MESSAGES_KO.grantReasonRequired]],
    );
    expect(
      measureUpdateBodyFor(objected).safeParse({ decision: 'granted', reason: '분리 필요' }).success,
    ).toBe(true);
    // A reason recorded earlier counts, unless the update replaces it with nothing.
    const withReason = { reporter_consent: false, reason: '업무상 필요' };
    expect(measureUpdateBodyFor(withReason).safeParse({ decision: 'granted' }).success).toBe(true);
    expect(measureUpdateBodyFor(withReason).safeParse({ decision: 'granted', reason: '' }).success).toBe(
      false,
    );
    expect(
      measureUpdateBodyFor({ reporter_consent: null, reason: '' }).safeParse({ decision: 'granted' }).success,
    ).toBe(true);
  });

  it('needs a reason to refuse, whatever the reporter said', () => {
    expect(
      issuesOf(
        measureUpdateBodyFor({ reporter_consent: true, reason: '' }).safeParse({
          decision: 'refused',
          reason: '',
        }),
      ),
    ).toEqual([['reason', CASE_FIELD_MESSAGES_KO.refuseReasonRequired]]);
  });
});
