import type { CaseMeasure } from '@ansim/shared/contract/manager';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import MeasureReasonDialog from './measure-reason-dialog';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

beforeAll(async () => {
  await initI18n();
});
// The first check of a dialog loads its schema (lib/lazy-resolver.ts): seconds, on a loaded machine.
configure({ asyncUtilTimeout: 10_000 });
afterEach(() => {
  cleanup();
  request.mockReset();
});

const MEASURE_ID = '6f1c1f4e-1111-4a5b-9c3d-222222222222';
const measurePath = `/api/v1/manager/report/case-1/measures/${MEASURE_ID}`;

const measure = (overrides: Partial<CaseMeasure> = {}): CaseMeasure => ({
  id: MEASURE_ID,
  measure: 'workplace_change',
  detail: '',
  requested_by_reporter: true,
  reporter_consent: null,
  reporter_opinion: '',
  reporter_opinion_at: null,
  decision: 'pending',
  reason: '',
  decided_at: null,
  ...overrides,
});

type Target = { measure: CaseMeasure; decision: 'granted' | 'refused' };

function openDialog(target: Target) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MeasureReasonDialog target={target} reportId="case-1" onClose={onClose} />
    </QueryClientProvider>,
  );
  const dialog = within(screen.getByRole('dialog'));
  const confirm = () =>
    fireEvent.click(
      dialog.getByRole('button', {
        name: target.decision === 'granted' ? '조치함으로 기록' : '조치하지 않음',
      }),
    );
  return { dialog, onClose, confirm, reason: dialog.getByRole('textbox', { name: '사유' }) };
}

const objected = measure({
  reporter_consent: false,
  reporter_opinion: '원하지 않습니다',
  reporter_opinion_at: '2026-11-20T01:00:00.000Z',
});

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('the measure reason dialog', { timeout: 30_000 }, () => {
  it('refuses a blank reason to refuse a measure, under the field, which gets the focus', async () => {
    const { dialog, confirm, reason } = openDialog({ measure: measure(), decision: 'refused' });
    expect(screen.getByRole('dialog', { name: "'근무장소 변경' 조치를 하지 않는 사유" })).toBeTruthy();
    fireEvent.change(reason, { target: { value: '   ' } });
    confirm();
    const message = await dialog.findByText('보호조치를 하지 않는 사유를 적어주세요.');
    expect(reason.getAttribute('aria-describedby')).toBe(message.id);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(reason));
    expect(request).not.toHaveBeenCalled();
  });

  it('says the reporter asked for the measure only where they did', () => {
    openDialog({ measure: measure(), decision: 'refused' });
    expect(
      screen.getByText('신고인이 요청한 보호조치를 하지 않는 경우 그 사유를 기록해야 합니다.'),
    ).toBeTruthy();
    cleanup();
    const { dialog } = openDialog({
      measure: { ...objected, requested_by_reporter: false },
      decision: 'refused',
    });
    expect(dialog.queryByText(/요청한/)).toBeNull();
    expect(
      dialog.getByText('신고인이 반대 의견을 밝힌 조치입니다. 하지 않기로 한 사유를 기록합니다.'),
    ).toBeTruthy();
    cleanup();
    const other = openDialog({ measure: measure({ requested_by_reporter: false }), decision: 'refused' });
    expect(other.dialog.queryByText(/요청한/)).toBeNull();
  });

  it('sends the refusal with its reason, trimmed, and closes', async () => {
    request.mockResolvedValue([measure({ decision: 'refused', reason: '인력 부족' })]);
    const { confirm, reason, onClose } = openDialog({ measure: measure(), decision: 'refused' });
    fireEvent.change(reason, { target: { value: '  인력 부족 ' } });
    confirm();
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]).toEqual([
      'patch',
      measurePath,
      { data: { decision: 'refused', reason: '인력 부족' } },
    ]);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('asks why a measure the reporter objected to is carried out, with the rule of 76-3 ④', async () => {
    request.mockResolvedValue([measure({ decision: 'granted' })]);
    const { dialog, confirm, reason } = openDialog({ measure: objected, decision: 'granted' });
    expect(
      screen.getByRole('dialog', { name: "신고인이 반대한 '근무장소 변경' 조치를 시행하는 사유" }),
    ).toBeTruthy();
    expect(dialog.getByText(/근로기준법 제76조의3 ④/)).toBeTruthy();
    confirm();
    expect(await dialog.findByText('신고인이 반대한 보호조치를 시행하는 사유를 적어주세요.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(reason));
    expect(request).not.toHaveBeenCalled();

    fireEvent.change(reason, { target: { value: '행위자와 같은 층이라 분리가 필요합니다' } });
    // The message goes as soon as the field is filled.
    await waitFor(() =>
      expect(dialog.queryByText('신고인이 반대한 보호조치를 시행하는 사유를 적어주세요.')).toBeNull(),
    );
    confirm();
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2]).toEqual({
      data: { decision: 'granted', reason: '행위자와 같은 층이라 분리가 필요합니다' },
    });
  });

  it("shows the server's refusal and stays open with the reason typed", async () => {
    request.mockRejectedValue(
      new RequestError(409, { code: 'CASE_CLOSED', message: '종결된 사건은 바꿀 수 없습니다.' }),
    );
    const { dialog, confirm, reason, onClose } = openDialog({ measure: measure(), decision: 'refused' });
    fireEvent.change(reason, { target: { value: '인력 부족' } });
    confirm();
    expect((await dialog.findByRole('alert')).textContent).toBe('종결된 사건은 바꿀 수 없습니다.');
    expect(onClose).not.toHaveBeenCalled();
    expect((reason as HTMLTextAreaElement).value).toBe('인력 부족');
  });

  it('sends nothing on cancel and clears what was typed', async () => {
    const { dialog, reason, onClose } = openDialog({ measure: objected, decision: 'granted' });
    fireEvent.change(reason, { target: { value: '메모' } });
    fireEvent.click(dialog.getByRole('button', { name: '취소' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect((reason as HTMLTextAreaElement).value).toBe(''));
    expect(request).not.toHaveBeenCalled();
  });
});
