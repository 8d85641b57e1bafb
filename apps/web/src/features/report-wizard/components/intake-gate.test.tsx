import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { useLoginState } from '../../../lib/login-state';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import { startIntake, useIntakeToken } from '../../../stores/intake-token';
import { useReportForm } from '../../../stores/report-form-store';
import { IntakeGate } from './intake-gate';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));
vi.mock('./intake-renewal', () => ({ default: ({ code }: { code: string }) => <p>renew {code}</p> }));

const FILE_ID = '00000000-0000-4000-8000-000000000001';

const renderGate = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <IntakeGate>
          <p>wizard step</p>
        </IntakeGate>
      </MemoryRouter>
    </QueryClientProvider>,
  );

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  useReportForm.getState().clear();
  useReportForm.getState().setReportType('anonym');
});
afterEach(() => {
  cleanup();
  request.mockReset();
  useIntakeToken.getState().clear();
  useLoginState.getState().clear();
  localStorage.clear();
});

describe('IntakeGate', () => {
  it('gets a member a token for their company before the wizard shows, sending no code', async () => {
    useLoginState.getState().setExpires(Math.floor(Date.now() / 1000) + 3600);
    request.mockImplementation((method: string, url: string) =>
      method === 'post' && url === '/api/v1/intake/'
        ? Promise.resolve({
            token: 'member-tok',
            expires: Date.now() / 1000 + 3600,
            company: { name: '데모' },
          })
        : Promise.resolve([]),
    );
    renderGate();
    expect(screen.getByRole('status').textContent).toContain('익명 신고를 준비하는 중입니다');
    await screen.findByText('wizard step');
    expect(request).toHaveBeenCalledWith('post', '/api/v1/intake/', { data: {} });
    expect(useIntakeToken.getState().session).toMatchObject({ token: 'member-tok', code: null });
  });

  it('when the server forgot the token, drops the files and asks for them again', async () => {
    useLoginState.getState().setExpires(Math.floor(Date.now() / 1000) + 3600);
    startIntake({ token: 'old', expires: Date.now() / 1000 + 3600, company: { name: '데모' } }, null);
    useReportForm
      .getState()
      .setField('acts', [{ date: 'x', location: '', description: 'y', evidences: [FILE_ID] }]);
    request.mockImplementation(
      (method: string, url: string, options: { headers: Record<string, string> }) => {
        if (method === 'get' && url === '/api/v1/file/')
          return options.headers['X-Intake-Token'] === 'old'
            ? Promise.reject(new RequestError(410, { code: 'INTAKE_EXPIRED', message: '' }))
            : Promise.resolve([]);
        return Promise.resolve({
          token: 'new',
          expires: Date.now() / 1000 + 3600,
          company: { name: '데모' },
        });
      },
    );
    renderGate();
    const lost = await screen.findByTestId('intake-files-lost');
    expect(lost.textContent).toContain('첨부했던 파일을 다시 올려주세요');
    expect(useReportForm.getState().form.acts[0]!.evidences).toEqual([]);
    await waitFor(() => expect(useIntakeToken.getState().session?.token).toBe('new'));
    expect(screen.getByText('wizard step')).toBeTruthy();
  });

  it('asks a visitor from an intake link to confirm again, keeping their code', async () => {
    startIntake({ token: 'old', expires: Date.now() / 1000 - 10, company: { name: '데모' } }, 'demo123');
    renderGate();
    expect(await screen.findByText('renew demo123')).toBeTruthy();
    expect(screen.queryByText('wizard step')).toBeNull();
    expect(request).not.toHaveBeenCalledWith('post', '/api/v1/intake/', expect.anything());
  });
});
