import { CASE_FIELD_MESSAGES_KO } from '@ansim/shared/case-messages.ko';
import type { ManagerCase } from '@ansim/shared/contract/manager';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import { StatusDialog } from './status-dialog';

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
  const dialog = screen.getByRole('dialog', { name: '처리 상태 변경' });
  return { dialog, onClose, field: within(dialog) };
}

const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: '상태 변경' }));

const typeInto = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('the status dialog', { timeout: 30_000 }, () => {
  it('offers only the allowed steps, asks for one under the choice, focuses it and sends nothing', async () => {
    const { dialog, field } = openDialog(caseIn('received', ['investigating', 'dismissed']));
    const radios = field.getAllByRole('radio');
    expect(radios).toHaveLength(2);
    submit(dialog);
    const message = await field.findByText(CASE_FIELD_MESSAGES_KO.statusRequired);
    expect(message.textContent).toBe('변경할 상태를 선택해주세요.');
    // Under the choice, and named as its description.
    expect(field.getByRole('radiogroup').getAttribute('aria-describedby')).toBe(message.id);
    await waitFor(() => expect(document.activeElement).toBe(radios[0]));
    expect(request).not.toHaveBeenCalled();

    // Choosing a step clears the message.
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    await waitFor(() => expect(field.queryByText(CASE_FIELD_MESSAGES_KO.statusRequired)).toBeNull());
  });

  it('asks for the finding and the actions before action_taken, then sends them as the outcome', async () => {
    request.mockResolvedValue(caseIn('action_taken', ['closed']));
    const { dialog, field, onClose } = openDialog(caseIn('investigating', ['action_taken', 'closed']));
    expect(field.queryByTestId('outcome-fields')).toBeNull();
    fireEvent.click(field.getByRole('radio', { name: /조치 완료/ }));
    expect(field.getByTestId('outcome-fields')).toBeTruthy();
    submit(dialog);
    expect(await field.findByText('조사 결과를 골라주세요.')).toBeTruthy();
    expect(
      field.getByText('취한 조치를 하나 이상 골라주세요. 조치가 없으면 "조치 없음"을 고릅니다.'),
    ).toBeTruthy();
    // The first field that needs a change is the finding.
    await waitFor(() =>
      expect(document.activeElement).toBe(field.getByRole('radio', { name: '괴롭힘 인정' })),
    );
    expect(request).not.toHaveBeenCalled();

    fireEvent.click(field.getByRole('radio', { name: '일부 인정' }));
    fireEvent.click(field.getByRole('checkbox', { name: '조치 없음' }));
    // An action replaces "조치 없음"; "조치 없음" stands alone.
    fireEvent.click(field.getByRole('checkbox', { name: '견책' }));
    fireEvent.click(field.getByRole('checkbox', { name: '교육' }));
    expect((field.getByRole('checkbox', { name: '조치 없음' }) as HTMLInputElement).checked).toBe(false);
    typeInto(field.getByRole('textbox', { name: '결과 요약' }), '  견책과 교육  ');
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

  it('asks only for the actions when the finding is chosen, and focuses them', async () => {
    const { dialog, field } = openDialog(caseIn('investigating', ['action_taken', 'closed']));
    fireEvent.click(field.getByRole('radio', { name: /종결/ }));
    fireEvent.click(field.getByRole('radio', { name: '인정되지 않음' }));
    submit(dialog);
    expect(await field.findByText(/취한 조치를 하나 이상 골라주세요/)).toBeTruthy();
    expect(field.queryByText('조사 결과를 골라주세요.')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field.getByRole('checkbox', { name: '경고' })));
    expect(request).not.toHaveBeenCalled();
  });

  it('drops the outcome from the body when the chosen step does not record one', async () => {
    request.mockResolvedValue(caseIn('dismissed', ['investigating']));
    const { dialog, field } = openDialog(caseIn('investigating', ['action_taken', 'closed', 'dismissed']));
    fireEvent.click(field.getByRole('radio', { name: /조치 완료/ }));
    fireEvent.click(field.getByRole('radio', { name: '괴롭힘 인정' }));
    fireEvent.click(field.getByRole('radio', { name: /불성립/ }));
    expect(field.queryByTestId('outcome-fields')).toBeNull();
    typeInto(field.getByRole('textbox', { name: '내부 메모' }), '요건 불충족');
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toEqual({
      status: 'dismissed',
      note_for_reporter: '',
      internal_note: '요건 불충족',
      is_feedback: false,
    });
  });

  it('closes after action was taken without asking for the outcome again', async () => {
    request.mockResolvedValue(caseIn('closed', ['investigating']));
    const { dialog, field } = openDialog(caseIn('action_taken', ['closed']));
    fireEvent.click(field.getByRole('radio', { name: /종결/ }));
    expect(field.queryByTestId('outcome-fields')).toBeNull();
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toEqual({
      status: 'closed',
      note_for_reporter: '',
      internal_note: '',
      is_feedback: false,
    });
  });

  it('needs a written reason to reopen an ended case, shown under the field, which gets the focus', async () => {
    request.mockResolvedValue(caseIn('investigating', ['action_taken', 'closed']));
    const { dialog, field } = openDialog(caseIn('dismissed', ['investigating']));
    fireEvent.click(field.getByRole('radio', { name: /다시 열어/ }));
    const reason = field.getByRole('textbox', { name: /다시 여는 사유/ });
    // Blank is no reason: the schema trims before it checks.
    typeInto(reason, '   ');
    submit(dialog);
    const message = await field.findByText('사건을 다시 여는 사유를 적어주세요.');
    expect(reason.getAttribute('aria-describedby')).toBe(message.id);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(reason));
    expect(request).not.toHaveBeenCalled();

    typeInto(reason, ' 추가 진술이 들어왔습니다 ');
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toEqual({
      status: 'investigating',
      note_for_reporter: '',
      internal_note: '추가 진술이 들어왔습니다',
      is_feedback: false,
    });
  });

  it('marks a note as feedback only while there is a note', async () => {
    request.mockResolvedValue(caseIn('investigating', ['action_taken']));
    const { dialog, field } = openDialog(caseIn('received', ['investigating']));
    const feedback = field.getByRole('checkbox', { name: /조사 결과 통지로 기록/ }) as HTMLInputElement;
    const note = field.getByRole('textbox', { name: '신고인에게 전할 안내' });
    expect(feedback.disabled).toBe(true);
    typeInto(note, '조사를 시작했습니다.');
    fireEvent.click(feedback);
    expect(feedback.checked).toBe(true);
    // Emptying the note unmarks it: an empty note is never feedback.
    typeInto(note, '  ');
    await waitFor(() => expect(feedback.checked).toBe(false));
    expect(feedback.disabled).toBe(true);
    typeInto(note, '조사를 시작했습니다. ');
    fireEvent.click(feedback);
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    submit(dialog);
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![2].data).toEqual({
      status: 'investigating',
      note_for_reporter: '조사를 시작했습니다.',
      internal_note: '',
      is_feedback: true,
    });
  });

  it('says plainly when someone else moved the case first, and keeps what was typed', async () => {
    request.mockRejectedValue(
      new RequestError(409, { code: 'INVALID_TRANSITION', message: 'Invalid transition' }),
    );
    const { dialog, field, onClose } = openDialog(caseIn('received', ['investigating']));
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    typeInto(field.getByRole('textbox', { name: '내부 메모' }), '메모');
    submit(dialog);
    expect((await field.findByRole('alert')).textContent).toContain(
      '그 사이 다른 담당자가 상태를 바꿨습니다',
    );
    expect(onClose).not.toHaveBeenCalled();
    expect((field.getByRole('textbox', { name: '내부 메모' }) as HTMLTextAreaElement).value).toBe('메모');
  });

  it("shows any other refusal in the server's own words", async () => {
    request.mockRejectedValue(
      new RequestError(400, {
        code: 'VALIDATION_ERROR',
        message: '입력값을 확인해주세요.',
        details: { outcome: '조사 결과(괴롭힘 인정 여부와 조치)를 기록해야 이 단계로 바꿀 수 있습니다.' },
      }),
    );
    const { dialog, field, onClose } = openDialog(caseIn('received', ['investigating']));
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    submit(dialog);
    expect((await field.findByRole('alert')).textContent).toBe('입력값을 확인해주세요.');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends the change once however often the button is pressed', async () => {
    request.mockResolvedValue(caseIn('investigating', ['action_taken']));
    const { dialog, field, onClose } = openDialog(caseIn('received', ['investigating']));
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    submit(dialog);
    submit(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("speaks the rule's message in English on the English page", async () => {
    await changeLanguage('en');
    try {
      render(
        <QueryClientProvider client={createQueryClient()}>
          <StatusDialog report={caseIn('closed', ['investigating'])} open onClose={vi.fn()} />
        </QueryClientProvider>,
      );
      const dialog = within(screen.getByRole('dialog'));
      fireEvent.click(dialog.getAllByRole('radio')[0]!);
      fireEvent.click(dialog.getByRole('button', { name: 'Change status' }));
      expect(await dialog.findByText('Give the reason for reopening the case.')).toBeTruthy();
      expect(request).not.toHaveBeenCalled();
    } finally {
      await changeLanguage('ko');
    }
  });

  it('sends nothing on cancel, and opens blank again', async () => {
    const { field, onClose } = openDialog(caseIn('received', ['investigating']));
    fireEvent.click(field.getByRole('radio', { name: /조사 중/ }));
    typeInto(field.getByRole('textbox', { name: '신고인에게 전할 안내' }), '안내');
    fireEvent.click(field.getByRole('button', { name: '취소' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect((field.getByRole('radio', { name: /조사 중/ }) as HTMLInputElement).checked).toBe(false),
    );
    expect((field.getByRole('textbox', { name: '신고인에게 전할 안내' }) as HTMLTextAreaElement).value).toBe(
      '',
    );
    expect(request).not.toHaveBeenCalled();
  });
});
