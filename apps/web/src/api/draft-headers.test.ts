import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../lib/request-error';
import { startIntake, useIntakeToken } from '../stores/intake-token';
import { useReportForm } from '../stores/report-form-store';
import { deleteEvidence } from './delete-evidence';
import { draftHeaders, noteIntakeFailure } from './draft-headers';
import { ownFilesQuery } from './evidence-files';
import { submitReport } from './submit-report';
import { uploadEvidence } from './upload-evidence';

const request = vi.fn();
vi.mock('../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

const act = (evidences: string[]) => ({ date: '2026-01-01', location: '', description: 'x', evidences });

beforeEach(() => {
  useReportForm.getState().clear();
  startIntake({ token: 'intake-1', expires: Date.now() / 1000 + 3600, company: { name: '데모' } }, null);
});
afterEach(() => {
  request.mockReset();
  useIntakeToken.getState().clear();
  localStorage.clear();
});

describe('intake token on the draft calls', () => {
  it('sends X-Intake-Token on upload, file list, delete and submission of an anonymous draft', async () => {
    useReportForm.getState().setReportType('anonym');
    request.mockResolvedValue({ id: 'f1' });
    await uploadEvidence(new File(['x'], 'a.txt'), () => {});
    await ownFilesQuery().queryFn({ signal: new AbortController().signal });
    await deleteEvidence('f1');
    await submitReport(useReportForm.getState().form, 'key-1', 'me@private.example');
    for (const call of request.mock.calls)
      expect((call[2] as { headers: Record<string, string> }).headers['X-Intake-Token']).toBe('intake-1');
    const submit = request.mock.calls[3]!;
    expect(submit[2].headers['Idempotency-Key']).toBe('key-1');
    expect(submit[2].data.contact_email).toBe('me@private.example');
    expect(submit[2].data.report_type).toBe('anonym');
  });

  it('sends no intake token and no contact address with a named report', async () => {
    useReportForm.getState().setReportType('formal');
    expect(draftHeaders()).toEqual({});
    request.mockResolvedValue({ id: 'r1' });
    await submitReport(useReportForm.getState().form, 'key-2', 'me@private.example');
    expect(request.mock.calls[0]![2].headers).toEqual({ 'Idempotency-Key': 'key-2' });
    expect(request.mock.calls[0]![2].data.contact_email).toBeUndefined();
  });
});

describe('noteIntakeFailure', () => {
  beforeEach(() => {
    useReportForm.getState().setReportType('anonym');
    useReportForm.getState().setField('acts', [act(['f1', 'f2'])]);
  });

  it('on 410 INTAKE_EXPIRED forgets the token and the files it owned, and keeps the text', () => {
    expect(noteIntakeFailure(new RequestError(410, { code: 'INTAKE_EXPIRED', message: '' }))).toBe(true);
    expect(useReportForm.getState().form.acts).toEqual([act([])]);
    expect(useIntakeToken.getState()).toMatchObject({ session: null, filesLost: true });
  });

  it('leaves other failures, and a 404 on delete, alone', () => {
    expect(noteIntakeFailure(new RequestError(413, { code: 'PAYLOAD_TOO_LARGE', message: '' }))).toBe(false);
    expect(
      noteIntakeFailure(new RequestError(404, { code: 'NOT_FOUND', message: '' }), { isDelete: true }),
    ).toBe(false);
    expect(useReportForm.getState().form.acts).toEqual([act(['f1', 'f2'])]);
    expect(useIntakeToken.getState().session?.token).toBe('intake-1');
  });

  it('does nothing for a named draft, which sends no token', () => {
    useReportForm.getState().setReportType('brief');
    expect(noteIntakeFailure(new RequestError(401, { code: 'UNAUTHORIZED', message: '' }))).toBe(false);
  });
});
