import type { CaseMeasure, ManagerCase } from '@ansim/shared/contract/manager';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { MeasuresPanel } from './measures-panel';

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

const caseWith = (measures: CaseMeasure[], isClosed = false) =>
  ({ id: 'case-1', is_closed: isClosed, measures }) as unknown as ManagerCase;

function renderPanel(report: ManagerCase) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MeasuresPanel report={report} />
    </QueryClientProvider>,
  );
  return within(screen.getByTestId('measure'));
}

const measurePath = `/api/v1/manager/report/case-1/measures/${MEASURE_ID}`;

// 근로기준법 제76조의3 ④: a measure against the reporter's will, or a requested one refused, needs a reason.
describe('the measures panel and its reason dialog', { timeout: 30_000 }, () => {
  it('records a measure the reporter did not object to at once, without asking for a reason', async () => {
    request.mockResolvedValue([measure({ decision: 'granted' })]);
    const item = renderPanel(caseWith([measure()]));
    fireEvent.click(item.getByRole('button', { name: '조치함으로 기록' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]).toEqual(['patch', measurePath, { data: { decision: 'granted' } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks why before carrying out a measure the reporter objected to, and refuses an empty reason', async () => {
    request.mockResolvedValue([measure({ decision: 'granted' })]);
    const item = renderPanel(
      caseWith([
        measure({
          reporter_consent: false,
          reporter_opinion: '원하지 않습니다',
          reporter_opinion_at: '2026-11-20T01:00:00.000Z',
        }),
      ]),
    );
    fireEvent.click(item.getByRole('button', { name: '조치함으로 기록' }));
    // The dialog loads on the first click (measure-reason-dialog.tsx), hence find, not get.
    const dialog = await screen.findByRole('dialog', {
      name: /신고인이 반대한 '근무장소 변경' 조치를 시행하는 사유/,
    });
    expect(within(dialog).getByText(/근로기준법 제76조의3 ④/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '조치함으로 기록' }));
    expect(
      await within(dialog).findByText('신고인이 반대한 보호조치를 시행하는 사유를 적어주세요.'),
    ).toBeTruthy();
    expect(request).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByRole('textbox', { name: '사유' }), {
      target: { value: ' 행위자와 같은 층이라 분리가 필요합니다 ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '조치함으로 기록' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]).toEqual([
      'patch',
      measurePath,
      { data: { decision: 'granted', reason: '행위자와 같은 층이라 분리가 필요합니다' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('always asks why a requested measure is refused', async () => {
    request.mockResolvedValue([measure({ decision: 'refused', reason: '인력 부족' })]);
    const item = renderPanel(caseWith([measure()]));
    fireEvent.click(item.getByRole('button', { name: '조치하지 않음' }));
    const dialog = await screen.findByRole('dialog', { name: "'근무장소 변경' 조치를 하지 않는 사유" });
    fireEvent.change(within(dialog).getByRole('textbox', { name: '사유' }), {
      target: { value: '인력 부족' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '조치하지 않음' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2]).toEqual({ data: { decision: 'refused', reason: '인력 부족' } });
  });

  it('offers no decision on a closed case', () => {
    const item = renderPanel(caseWith([measure()], true));
    expect(item.queryByRole('button')).toBeNull();
    expect(screen.getByTestId('measures-closed')).toBeTruthy();
  });
});
