import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { RequestError } from '../../../lib/request-error';
import { INTAKE_HEADER, intakeHeaders, useIntakeToken } from '../../../stores/intake-token';
import { useReportForm } from '../../../stores/report-form-store';
import IntakePage from './intake-page';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));
vi.mock('../../../lib/site-info', () => ({
  useSiteInfo: () => ({ operator_name: '안심신고 운영팀', operator_contact: 'help@ansim.example' }),
}));
vi.mock('../../../components/form/captcha-field', () => ({
  CaptchaField: ({ onChange }: { onChange: (payload: string) => void }) => (
    <button type="button" onClick={() => onChange('captcha-payload')}>
      captcha
    </button>
  ),
}));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
  useReportForm.getState().clear();
  useIntakeToken.getState().clear();
  localStorage.clear();
});

/** Answers the page's GETs by path; POST /intake/ from `grant`. */
function serve(info: unknown, grant?: unknown) {
  request.mockImplementation((method: string, url: string) => {
    if (method === 'get' && url.startsWith('/api/v1/intake/'))
      return info instanceof Error ? Promise.reject(info) : Promise.resolve(info);
    if (method === 'post' && url === '/api/v1/intake/') return Promise.resolve(grant);
    return Promise.reject(new Error(`unexpected ${method} ${url}`));
  });
}

function renderAt(code: string) {
  const router = createMemoryRouter(
    [
      { path: '/c/:code', element: <IntakePage /> },
      { path: '/report/t', element: <h1>guide</h1> },
    ],
    { initialEntries: [`/c/${code}`] },
  );
  // No query cache around it, as in the app (router.tsx: themeOnly): the page must not need one.
  render(<RouterProvider router={router} />);
  return router;
}

describe('/c/:code', () => {
  it('shows the company, its help text, what stays hidden and who operates the service', async () => {
    serve({ company: { name: '데모 주식회사' }, help_text: '인사팀과 무관한 외부 담당자가 먼저 읽습니다.' });
    renderAt('demo123');
    await screen.findByRole('heading', { level: 1, name: '데모 주식회사 익명 신고' });
    expect(screen.getByTestId('intake-help-text').textContent).toContain('외부 담당자');
    expect(screen.getByTestId('anonymity-facts').textContent).toContain('어느 계정에서 신고했는지');
    expect((await screen.findByTestId('site-operator')).textContent).toBe(
      '이 서비스를 운영하는 곳: 안심신고 운영팀 · 문의: help@ansim.example',
    );
  });

  it('starts an anonymous draft with the code and the captcha, and keeps its token with the draft', async () => {
    serve(
      { company: { name: '데모 주식회사' }, help_text: '' },
      { token: 'tok-9', expires: Date.now() / 1000 + 3600, company: { name: '데모 주식회사' } },
    );
    const router = renderAt('demo123');
    fireEvent.click(await screen.findByRole('button', { name: 'captcha' }));
    fireEvent.click(screen.getByTestId('intake-start'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/t'));
    expect(request).toHaveBeenCalledWith('post', '/api/v1/intake/', {
      data: { code: 'demo123', captcha: 'captcha-payload' },
    });
    expect(useReportForm.getState().form.report_type).toBe('anonym');
    expect(useIntakeToken.getState().session).toMatchObject({ token: 'tok-9', code: 'demo123' });
    expect(intakeHeaders()).toEqual({ [INTAKE_HEADER]: 'tok-9' });
  });

  it('says plainly in Korean when the link is unknown', async () => {
    serve(new RequestError(404, { code: 'NOT_FOUND', message: '요청한 항목을 찾을 수 없습니다.' }));
    renderAt('nope');
    await screen.findByRole('heading', { level: 1, name: '신고 링크를 찾을 수 없습니다' });
    expect(screen.getByTestId('intake-not-found').textContent).toContain('주소가 정확한지 확인해주세요');
  });

  it('reads the company again after a dropped connection, and stops on an unknown code', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const dropped = new RequestError(0, { code: 'ERR_NETWORK', message: 'network' });
      request
        .mockRejectedValueOnce(dropped)
        .mockResolvedValueOnce({ company: { name: '데모 주식회사' }, help_text: '' });
      renderAt('demo123');
      await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
      await vi.advanceTimersByTimeAsync(1_000);
      await screen.findByRole('heading', { level: 1, name: '데모 주식회사 익명 신고' });
      expect(request).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
