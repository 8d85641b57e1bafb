import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DRAFT_PREFIX } from '../lib/draft-storage';
import { IDEMPOTENCY_KEY, isValidReportType, useReportForm } from './report-form-store';

const stored = (field: string) => {
  const raw = localStorage.getItem(`${DRAFT_PREFIX}${field}`);
  return raw === null ? undefined : JSON.parse(raw);
};

beforeEach(() => useReportForm.getState().clear());
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('report form store', () => {
  it('persists each field under its own key and stamps last_edit', () => {
    useReportForm.getState().setReportType('formal');
    useReportForm.getState().setField('reporter_name', '홍길동');
    useReportForm
      .getState()
      .setField('acts', [{ date: '2025년 3월', location: '회의실', description: '폭언', evidences: null }]);
    expect(stored('report_type')).toBe('formal');
    expect(stored('reporter_name')).toBe('홍길동');
    expect(stored('acts')).toEqual([
      { date: '2025년 3월', location: '회의실', description: '폭언', evidences: null },
    ]);
    // Fields never touched have no key: only what changed is written.
    expect(stored('extra_info')).toBeUndefined();
    const lastEdit = useReportForm.getState().form.last_edit;
    expect(lastEdit).not.toBeNull();
    expect(stored('last_edit')).toBe(lastEdit);
  });

  it('updates last_edit on every change', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    useReportForm.getState().setField('perpetrator_name', '김');
    expect(useReportForm.getState().form.last_edit).toBe('2025-01-01T00:00:00.000Z');
    vi.setSystemTime(new Date('2025-01-01T00:05:00Z'));
    useReportForm.getState().setField('perpetrator_name', '김부장');
    expect(useReportForm.getState().form.last_edit).toBe('2025-01-01T00:05:00.000Z');
    expect(stored('last_edit')).toBe('2025-01-01T00:05:00.000Z');
  });

  it('reload restores every field and the step from storage', () => {
    useReportForm.getState().setReportType('brief');
    useReportForm
      .getState()
      .setField('witnesses', [
        { name: '이참고', department: '영업팀', position: '대리', email: null, email_sent_at: null },
      ]);
    useReportForm.getState().setStep(3);
    useReportForm.setState({ form: { ...useReportForm.getState().form, witnesses: [] }, step: 0 });
    useReportForm.getState().reload();
    expect(useReportForm.getState().form.witnesses[0]?.name).toBe('이참고');
    expect(useReportForm.getState().form.report_type).toBe('brief');
    expect(useReportForm.getState().step).toBe(3);
  });

  it('reset clears the form but keeps report_type and returns to step 0', () => {
    const store = useReportForm.getState();
    store.setReportType('brief');
    store.setField('extra_info', '메모');
    store.setField('reporter_name', '홍길동');
    store.setStep(2);
    const key = store.ensureIdempotencyKey();
    store.reset();
    const { form, step, idempotencyKey } = useReportForm.getState();
    expect(form.report_type).toBe('brief');
    expect(form.extra_info).toBe('');
    expect(form.reporter_name).toBe('');
    expect(step).toBe(0);
    expect(idempotencyKey).toBeNull();
    // Storage agrees, so a reload after reset does not bring anything back.
    useReportForm.getState().reload();
    expect(useReportForm.getState().form.extra_info).toBe('');
    expect(useReportForm.getState().form.report_type).toBe('brief');
    expect(useReportForm.getState().step).toBe(0);
    expect(useReportForm.getState().ensureIdempotencyKey()).not.toBe(key);
  });

  it('creates the Idempotency-Key once per draft and keeps it across reloads', () => {
    const first = useReportForm.getState().ensureIdempotencyKey();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(useReportForm.getState().ensureIdempotencyKey()).toBe(first);
    expect(stored(IDEMPOTENCY_KEY)).toBe(first);
    useReportForm.setState({ idempotencyKey: null });
    useReportForm.getState().reload();
    expect(useReportForm.getState().ensureIdempotencyKey()).toBe(first);
  });

  it('clear after submission removes the whole draft, report_type and key included', () => {
    const store = useReportForm.getState();
    store.setReportType('formal');
    store.setField('perpetrator_name', '김부장');
    store.setStep(4);
    store.ensureIdempotencyKey();
    store.markSubmitted();
    expect(useReportForm.getState().isSubmitted).toBe(true);
    store.clear();
    expect(useReportForm.getState().isSubmitted).toBe(false);
    expect(useReportForm.getState().form.report_type).toBe('');
    expect(useReportForm.getState().step).toBe(0);
    expect(useReportForm.getState().idempotencyKey).toBeNull();
    expect(Object.keys(localStorage).filter((key) => key.startsWith(DRAFT_PREFIX))).toEqual([]);
  });

  it('choosing anonym removes the reporter identity typed for a named report', () => {
    const store = useReportForm.getState();
    store.setReportType('brief');
    store.setField('reporter_name', '홍길동');
    store.setField('reporter_department', '인사팀');
    store.setField('perpetrator_name', '김부장');
    store.setReportType('anonym');
    const { form } = useReportForm.getState();
    expect(form.reporter_name).toBe('');
    expect(form.reporter_department).toBe('');
    expect(stored('reporter_name')).toBe('');
    expect(form.perpetrator_name).toBe('김부장');
  });

  it('editing a field drops the server messages for it and its nested paths only', () => {
    useReportForm.getState().setServerErrors({
      'acts.0.description': '필수 입력 항목입니다.',
      perpetrator_name: '필수 입력 항목입니다.',
    });
    useReportForm.getState().setField('acts', []);
    expect(useReportForm.getState().serverErrors).toEqual({ perpetrator_name: '필수 입력 항목입니다.' });
  });

  it('reload drops a stored report_type that is not allowed and a step that is not a count', () => {
    localStorage.setItem(`${DRAFT_PREFIX}report_type`, '"hacked"');
    localStorage.setItem(`${DRAFT_PREFIX}step`, '"2"');
    useReportForm.getState().reload();
    expect(useReportForm.getState().form.report_type).toBe('');
    expect(useReportForm.getState().step).toBe(0);
  });

  it('accepts the six allowed report_type values, empty included', () => {
    for (const value of ['', 'anonym', 'brief', 'formal', 'reference', 'defendant']) {
      expect(isValidReportType(value)).toBe(true);
    }
    expect(isValidReportType('other')).toBe(false);
  });
});
