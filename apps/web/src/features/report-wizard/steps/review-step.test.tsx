import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import { startIntake, useIntakeToken } from '../../../stores/intake-token';
import { useReceiptSession } from '../../../stores/receipt-session';
import { stepsFor, useReportForm } from '../../../stores/report-form-store';
import { readSavedReceipts, useSavedReceipts } from '../../../stores/saved-receipts';
import { ReviewStep } from './review-step';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

const PHOTO = '00000000-0000-4000-8000-000000000001';
const MEMO = '00000000-0000-4000-8000-000000000002';
const VIDEO = '00000000-0000-4000-8000-000000000003';

const FILES = [
  { id: PHOTO, name: '김안심_사진.JPG', size: 2048, content_type: 'image/jpeg', metadata: 'removed' },
  { id: MEMO, name: '메모.txt', size: 10, content_type: 'text/plain', metadata: 'none' },
  { id: VIDEO, name: '회의.mp4', size: 5_000_000, content_type: 'video/mp4', metadata: 'unremovable' },
];

function serveFiles(files: unknown[], submit: () => Promise<unknown>) {
  request.mockImplementation((method: string, url: string) => {
    if (method === 'get' && url === '/api/v1/file/') return Promise.resolve(files);
    if (method === 'post' && url === '/api/v1/report/') return submit();
    return Promise.reject(new Error(`unexpected ${method} ${url}`));
  });
}

function anonymousDraft(actFiles: string[], harmFiles: string[] = []) {
  const store = useReportForm.getState();
  store.setReportType('anonym');
  store.setField('reporter_type', 'victim');
  store.setField('perpetrator_name', '박행위');
  store.setField('acts', [
    { date: '2026-03-05', location: '사무실', description: '업무 배제', evidences: actFiles },
  ]);
  store.setField(
    'harms',
    harmFiles.length ? [{ type: 'mental', description: '불면', evidences: harmFiles }] : [],
  );
  store.setStep(stepsFor('anonym').length);
}

function renderReview() {
  const headingRef = { current: null };
  const router = createMemoryRouter(
    [
      { path: '/report/t/a', element: <ReviewStep headingRef={headingRef} /> },
      { path: '/report-detail/:id/', element: <h1>report page</h1> },
    ],
    { initialEntries: ['/report/t/a'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  useReportForm.getState().clear();
  startIntake({ token: 'intake-7', expires: Date.now() / 1000 + 3600, company: { name: '데모' } }, null);
});
afterEach(() => {
  cleanup();
  request.mockReset();
  useIntakeToken.getState().clear();
  useReceiptSession.getState().close();
  useSavedReceipts.setState({ receipts: [] });
  localStorage.clear();
});

describe('anonymous review', () => {
  it('shows each file as the company will see it, numbered in the order cited', async () => {
    serveFiles(FILES, () => Promise.reject(new Error('not submitted')));
    anonymousDraft([MEMO], [PHOTO, MEMO]);
    renderReview();
    await screen.findAllByText('증거자료-2.jpg');
    const items = screen.getAllByTestId('evidence-preview-item');
    expect(items.map((item) => within(item).getByTestId('evidence-generic-name').textContent)).toEqual([
      '증거자료-1.txt',
      '증거자료-2.jpg',
    ]);
    expect(within(items[1]!).getByTestId('evidence-metadata').textContent).toBe('작성자·위치 정보 삭제됨');
    expect(items[1]!.textContent).toContain('사진 · ');
    // The summary above uses the same generic names; the original name is shown only as the reporter's own.
    expect(screen.getByTestId('wizard-review').textContent).not.toContain('증거자료-3');
  });

  it('flags a file whose metadata cannot be removed, says why, and does not submit', async () => {
    serveFiles(FILES, () => Promise.resolve({ id: 'r1', receipt: '1234 5678 9012 3456' }));
    anonymousDraft([PHOTO, VIDEO]);
    renderReview();
    const blocked = await screen.findByTestId('evidence-blocked');
    expect(blocked.textContent).toContain(
      '증거자료-2.mp4 파일은 작성자나 촬영 위치 같은 정보를 지울 수 없는',
    );
    expect(blocked.textContent).toContain('약식·정식 신고');
    fireEvent.click(screen.getByTestId('wizard-submit'));
    expect(await screen.findByTestId('submit-error')).toBeTruthy();
    expect(request).not.toHaveBeenCalledWith('post', '/api/v1/report/', expect.anything());
    fireEvent.click(within(blocked).getByRole('button', { name: '파일이 있는 단계로 가기' }));
    expect(useReportForm.getState().step).toBe(stepsFor('anonym').indexOf('acts'));
  });

  it('shows the server refusing an unremovable file (422) in Korean', async () => {
    serveFiles(FILES.slice(0, 1), () =>
      Promise.reject(
        new RequestError(422, {
          code: 'FILE_METADATA_UNREMOVABLE',
          message: '이 파일에서 작성자·위치 같은 정보를 지울 수 없어 익명 신고에는 첨부할 수 없습니다.',
        }),
      ),
    );
    anonymousDraft([PHOTO]);
    renderReview();
    await screen.findAllByText('증거자료-1.jpg');
    fireEvent.click(screen.getByTestId('wizard-submit'));
    expect((await screen.findByTestId('submit-error')).textContent).toContain(
      '익명 신고에는 첨부할 수 없습니다',
    );
  });

  it('submits with the intake token and the private address, then shows the receipt once', async () => {
    serveFiles(FILES.slice(0, 2), () => Promise.resolve({ id: 'r-77', receipt: '1234 5678 9012 3456' }));
    anonymousDraft([PHOTO]);
    const router = renderReview();
    await screen.findAllByText('증거자료-1.jpg');
    fireEvent.change(screen.getByLabelText(/개인 이메일 주소/), { target: { value: 'me@private.example' } });
    fireEvent.click(screen.getByTestId('wizard-submit'));
    const dialog = await screen.findByTestId('receipt-dialog');
    const [, , options] = request.mock.calls.find(([method]) => method === 'post')!;
    expect(options.headers['X-Intake-Token']).toBe('intake-7');
    expect(options.data.contact_email).toBe('me@private.example');
    expect(within(dialog).getByTestId('receipt-number').textContent).toBe('1234 5678 9012 3456');
    expect(within(dialog).getByTestId('receipt-warning').textContent).toContain('한 번만');
    // The draft left the device at once; a reload cannot send it again.
    expect(Object.keys(localStorage).filter((key) => key.startsWith('ansim.reportDraft.'))).toEqual([]);
    // Saving on this device is the reporter's choice, off until ticked.
    expect(readSavedReceipts()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '이 기기에 저장' }));
    expect(readSavedReceipts().map((item) => item.receipt)).toEqual(['1234567890123456']);
    fireEvent.click(within(dialog).getByTestId('receipt-continue'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report-detail/r-77/'));
    expect(useReceiptSession.getState().session?.reportId).toBe('r-77');
  });

  it('refuses a private address that is not an address', async () => {
    serveFiles([], () => Promise.resolve({ id: 'r', receipt: '1234567890123456' }));
    anonymousDraft([]);
    renderReview();
    fireEvent.change(screen.getByLabelText(/개인 이메일 주소/), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByTestId('wizard-submit'));
    expect(await screen.findAllByText('올바른 이메일 주소를 입력해주세요.')).not.toHaveLength(0);
    expect(request).not.toHaveBeenCalledWith('post', '/api/v1/report/', expect.anything());
  });
});
