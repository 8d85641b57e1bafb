import type { CurrentUser } from '@ansim/shared/contract/user';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useLoginState } from '../../lib/login-state';
import { createQueryClient } from '../../lib/query-client';
import SecurityPage from './security-page';

const request = vi.fn();
vi.mock('../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

configure({ asyncUtilTimeout: 10_000 });
beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
  useLoginState.getState().clear();
});

const userOf = (role: CurrentUser['role'], company: CurrentUser['company']): CurrentUser => ({
  id: '00000000-0000-4000-8000-000000000001',
  email: 'someone@example.com',
  name: '이름',
  role,
  company,
  mfa: { totp: true, passkeys: 0, recovery_codes_left: 10, required: true },
});

function renderPage(user: CurrentUser) {
  useLoginState.getState().setExpires(Math.floor(Date.now() / 1000) + 3600);
  request.mockImplementation((_method: string, url: string) =>
    Promise.resolve(url.includes('passkey') ? [] : user),
  );
  const router = createMemoryRouter([{ path: '/account/security', element: <SecurityPage /> }], {
    initialEntries: ['/account/security'],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('the account security page', { timeout: 30_000 }, () => {
  it("sends the operator, enrolled, to its console and asks it for no company's join code", async () => {
    renderPage(userOf('operator', null));
    const link = await screen.findByRole('link', { name: '운영 콘솔로 가기' });
    expect(link.getAttribute('href')).toBe('/operator');
    expect(screen.queryByRole('link', { name: '회사 신고 관리로 가기' })).toBeNull();
    expect(document.querySelector('input[name="join_code"]')).toBeNull();
  });

  it('sends an enrolled manager to case management', async () => {
    renderPage(userOf('manager', { id: '00000000-0000-4000-8000-000000000002', name: '데모' }));
    const link = await screen.findByRole('link', { name: '회사 신고 관리로 가기' });
    expect(link.getAttribute('href')).toBe('/manager');
  });
});
