import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { RequestError } from '../../../lib/request-error';
import { useReceiptSession } from '../../../stores/receipt-session';
import { useSavedReceipts } from '../../../stores/saved-receipts';
import ReceiptPage from './receipt-page';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));
// The proof-of-work widget does not run in jsdom; a button stands in for "verified".
vi.mock('../../../components/form/captcha-field', () => ({
  CaptchaField: ({ onChange, error }: { onChange: (payload: string) => void; error?: string }) => (
    <>
      <button type="button" onClick={() => onChange('captcha-payload')}>
        captcha
      </button>
      {error && <p>{error}</p>}
    </>
  ),
}));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
  localStorage.clear();
  sessionStorage.clear();
  useReceiptSession.setState({ session: null });
  useSavedReceipts.setState({ receipts: [] });
});

function renderPage(state?: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/receipt', element: <ReceiptPage /> },
      { path: '/report-detail/:id/', element: <h1>report page</h1> },
    ],
    { initialEntries: [{ pathname: '/receipt', state }] },
  );
  // No query cache around it, as in the app (router.tsx: themeOnly): the page must not need one.
  render(<RouterProvider router={router} />);
  return router;
}

describe('/receipt', () => {
  it('sends the 16 digits without spaces with the captcha, then opens the report', async () => {
    request.mockResolvedValueOnce({ report_id: 'r-42', expires: Date.now() / 1000 + 7200 });
    const router = renderPage();
    fireEvent.change(screen.getByRole('textbox', { name: /접수번호/ }), {
      target: { value: '1234 5678 9012 3456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'captcha' }));
    fireEvent.click(screen.getByRole('button', { name: '내 신고 열기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report-detail/r-42/'));
    expect(request).toHaveBeenCalledWith('post', '/api/v1/receipt/', {
      data: { receipt: '1234567890123456', captcha: 'captcha-payload' },
    });
    expect(useReceiptSession.getState().session?.reportId).toBe('r-42');
  });

  it('says in Korean that a wrong receipt does not match, and stays', async () => {
    request.mockRejectedValueOnce(
      new RequestError(400, {
        code: 'INVALID_CREDENTIALS',
        message: '이메일 또는 비밀번호가 올바르지 않습니다.',
      }),
    );
    const router = renderPage();
    fireEvent.change(screen.getByRole('textbox', { name: /접수번호/ }), {
      target: { value: '1111222233334444' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'captcha' }));
    fireEvent.click(screen.getByRole('button', { name: '내 신고 열기' }));
    expect((await screen.findByTestId('receipt-error')).textContent).toBe(
      '접수번호가 맞지 않습니다. 다시 확인해주세요.',
    );
    expect(router.state.location.pathname).toBe('/receipt');
    expect(useReceiptSession.getState().session).toBeNull();
  });

  it('refuses anything but 16 digits before calling the server', () => {
    renderPage();
    fireEvent.change(screen.getByRole('textbox', { name: /접수번호/ }), { target: { value: '1234 5678' } });
    fireEvent.click(screen.getByRole('button', { name: '내 신고 열기' }));
    expect(screen.getByText('접수번호는 숫자 16자리입니다.')).toBeTruthy();
    expect(screen.getByText('자동 입력 방지 확인을 완료해주세요.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('fills in a receipt saved on this device, chosen on the dashboard', () => {
    useSavedReceipts.getState().save('9999888877776666');
    const { savedAt } = useSavedReceipts.getState().receipts[0]!;
    renderPage({ savedAt });
    expect((screen.getByRole('textbox', { name: /접수번호/ }) as HTMLInputElement).value).toBe(
      '9999888877776666',
    );
  });
});
