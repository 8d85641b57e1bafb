import type { ManagerCase } from '@ansim/shared/contract/manager';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import { StatusDialog } from './status-dialog';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
});

const caseIn = (status: ManagerCase['status'], allowed: ManagerCase['allowed_transitions']) =>
  ({
    id: 'case-1',
    status,
    allowed_transitions: allowed,
    share_outcome_summary: false,
  }) as unknown as ManagerCase;

function openDialog(report: ManagerCase) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <StatusDialog report={report} open onClose={onClose} />
    </QueryClientProvider>,
  );
  return { dialog: screen.getByRole('dialog', { name: '처리 상태 변경' }), onClose };
}

const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: '상태 변경' }));

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('the status dialog', { timeout: 30_000 }, () => {
  it('offers only the allowed steps and sends nothing until one is chosen', () => {
    const { dialog } = openDialog(caseIn('received', ['investigating', 'dismissed']));
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    submit(dialog);
    expect(within(dialog).getByText('변경할 상태를 선택해주세요.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('asks for the finding and the actions before action_taken, then sends them as the outcome', async () => {
    request.mockResolvedValue(caseIn('action_taken', ['closed']));
    const { dialog, onClose } = openDialog(caseIn('investigating', ['action_taken', 'closed']));
    fireEvent.click(within(dialog).getByRole('radio', { name: /조치 완료/ }));
    submit(dialog);
    expect(within(dialog).getByText('조사 결과를 골라주세요.')).toBeTruthy();
    expect(within(dialog).getByText(/취한 조치를 하나 이상 골라주세요/)).toBeTruthy();
    expect(request).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('radio', { name: '일부 인정' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '조치 없음' }));
    // An action replaces "조치 없음"; "조치 없음" stands alone.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '견책' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '교육' }));
    expect((within(dialog).getByRole('checkbox', { name: '조치 없음' }) as HTMLInputElement).checked).toBe(
      false,
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: '결과 요약' }), {
      target: { value: '  견책과 교육  ' },
    });
    submit(dialog);

    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    const [method, path, { data }] = request.mock.calls[0]!;
    expect(method).toBe('patch');
    expect(path).toBe('/api/v1/manager/report/case-1');
    expect(data).toEqual({
      status: 'action_taken',
      note_for_reporter: '',
      internal_note: '',
      is_feedback: false,
      outcome: {
        finding: 'partially_substantiated',
        actions: ['reprimand', 'training'],
        summary: '견책과 교육',
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('needs a written reason to reopen a closed case', async () => {
    request.mockResolvedValue(caseIn('investigating', ['action_taken', 'closed']));
    const { dialog } = openDialog(caseIn('closed', ['investigating']));
    fireEvent.click(within(dialog).getByRole('radio', { name: /다시 열어/ }));
    submit(dialog);
    expect(within(dialog).getByText('사건을 다시 여는 사유를 적어주세요.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /다시 여는 사유/ }), {
      target: { value: '추가 진술이 들어왔습니다' },
    });
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toMatchObject({
      status: 'investigating',
      internal_note: '추가 진술이 들어왔습니다',
    });
  });

  it('marks a note as feedback only when there is a note', async () => {
    request.mockResolvedValue(caseIn('investigating', ['action_taken']));
    const { dialog } = openDialog(caseIn('received', ['investigating']));
    const feedback = within(dialog).getByRole('checkbox', {
      name: /조사 결과 통지로 기록/,
    }) as HTMLInputElement;
    expect(feedback.disabled).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: '신고인에게 전할 안내' }), {
      target: { value: '조사를 시작했습니다.' },
    });
    fireEvent.click(feedback);
    fireEvent.click(within(dialog).getByRole('radio', { name: /조사 중/ }));
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toMatchObject({
      note_for_reporter: '조사를 시작했습니다.',
      is_feedback: true,
    });
  });

  it('says plainly when someone else moved the case first', async () => {
    request.mockRejectedValue(
      new RequestError(409, { code: 'INVALID_TRANSITION', message: 'Invalid transition' }),
    );
    const { dialog } = openDialog(caseIn('received', ['investigating']));
    fireEvent.click(within(dialog).getByRole('radio', { name: /조사 중/ }));
    submit(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      '그 사이 다른 담당자가 상태를 바꿨습니다',
    );
  });
});
