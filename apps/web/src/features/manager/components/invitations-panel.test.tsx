import type { CaseInvitation, ManagerCase } from '@ansim/shared/contract/manager';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { RequestError } from '../../../lib/request-error';
import { InvitationsPanel } from './invitations-panel';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
});

const invitation = (overrides: Partial<CaseInvitation> = {}): CaseInvitation => ({
  id: 'inv-1',
  kind: 'defendant',
  name: '박행위',
  email: 'accused@a.example',
  witness_index: null,
  share_evidence: false,
  expires_at: '2026-12-31T00:00:00.000Z',
  sent_at: '2026-11-01T00:00:00.000Z',
  opened_at: null,
  acknowledged_at: null,
  responded_at: null,
  revoked_at: null,
  is_expired: false,
  ...overrides,
});

const caseWith = (invitations: CaseInvitation[], overrides: Partial<ManagerCase> = {}) =>
  ({
    id: 'case-1',
    status: 'investigating',
    is_closed: false,
    form: { perpetrator_name: '박행위', perpetrator_email: 'accused@a.example', witnesses: [] },
    files: [],
    invitations,
    ...overrides,
  }) as unknown as ManagerCase;

const renderPanel = (report: ManagerCase) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <InvitationsPanel report={report} />
    </QueryClientProvider>,
  );

// The first render loads MUI cold, which takes seconds on a loaded machine.
describe('the invitation card', { timeout: 30_000 }, () => {
  it("names the acts' files held back from the accused person, and only those", () => {
    const file = (id: string, name: string, metadata: 'removed' | 'unremovable') => ({
      id,
      name,
      size: 10,
      content_type: 'application/msword',
      sha256: null,
      metadata,
      message_id: null,
    });
    renderPanel(
      caseWith([], {
        form: {
          perpetrator_name: '박행위',
          witnesses: [],
          acts: [{ date: '', location: '', description: '', evidences: ['f1', 'f2'] }],
          harms: [{ type: 'mental', description: '', evidences: ['f3'] }],
        } as unknown as ManagerCase['form'],
        files: [
          file('f1', '증거자료-1.doc', 'unremovable'),
          file('f2', '증거자료-2.jpg', 'removed'),
          file('f3', '증거자료-3.doc', 'unremovable'),
        ],
      }),
    );
    const note = screen.getByTestId('evidence-held-back').textContent ?? '';
    expect(note).toContain('증거자료-1.doc');
    expect(note).not.toContain('증거자료-2.jpg');
    // Harm evidence is never shared anyway: it is not "held back".
    expect(note).not.toContain('증거자료-3.doc');
  });

  it('says nothing of held-back files when there are none', () => {
    renderPanel(caseWith([invitation()]));
    expect(screen.queryByTestId('evidence-held-back')).toBeNull();
  });

  it('offers a new link while the statement is still awaited', () => {
    renderPanel(caseWith([invitation()]));
    expect(screen.getByText(/진행 중/)).toBeTruthy();
    expect(
      within(screen.getByTestId('invitation')).getByRole('button', { name: '다시 보내기' }),
    ).toBeTruthy();
  });

  it('says the statement came in, with its time, and offers no resend', () => {
    renderPanel(caseWith([invitation({ responded_at: '2026-11-03T05:00:00.000Z' })]));
    expect(screen.getByTestId('defendant-responded').textContent).toMatch(/진술 제출됨 · 2026/);
    expect(screen.queryByText(/진행 중/)).toBeNull();
    expect(screen.queryByRole('button', { name: '다시 보내기' })).toBeNull();
  });

  it('offers no sending, resending or revoking on a closed case, and says why', () => {
    renderPanel(caseWith([invitation()], { status: 'closed', is_closed: true }));
    expect(screen.getByTestId('invitations-closed').textContent).toContain('종결된 사건');
    expect(screen.queryByRole('button', { name: '다시 보내기' })).toBeNull();
    expect(screen.queryByRole('button', { name: '요청 취소' })).toBeNull();
    expect(screen.queryByRole('button', { name: /진술 요청 보내기/ })).toBeNull();
  });

  it('asks before revoking a link, sends nothing on cancel, and revokes on confirmation', async () => {
    request.mockResolvedValue([invitation({ revoked_at: '2026-11-05T00:00:00.000Z' })]);
    renderPanel(caseWith([invitation()]));
    const revoke = () => within(screen.getByTestId('invitation')).getByRole('button', { name: '요청 취소' });
    fireEvent.click(revoke());
    // The dialog loads on the first click (revoke-invitation-dialog.tsx), hence find, not get.
    let dialog = await screen.findByRole('dialog', { name: '진술 요청을 취소할까요?' });
    expect(within(dialog).getByText(/박행위님에게 보낸 링크가 더 이상 열리지 않습니다/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(request).not.toHaveBeenCalled();

    fireEvent.click(revoke());
    dialog = await screen.findByRole('dialog', { name: '진술 요청을 취소할까요?' });
    fireEvent.click(within(dialog).getByRole('button', { name: '요청 취소' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]).toEqual(['post', '/api/v1/manager/report/case-1/invitations/inv-1/revoke']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
  it("shows the server's refusal of a revocation on the invitation, once the dialog has closed", async () => {
    request.mockRejectedValue(
      new RequestError(409, { code: 'CASE_CLOSED', message: '종결된 사건은 바꿀 수 없습니다.' }),
    );
    renderPanel(caseWith([invitation()]));
    const row = within(screen.getByTestId('invitation'));
    fireEvent.click(row.getByRole('button', { name: '요청 취소' }));
    const dialog = await screen.findByRole('dialog', { name: '진술 요청을 취소할까요?' });
    fireEvent.click(within(dialog).getByRole('button', { name: '요청 취소' }));
    expect((await row.findByRole('alert')).textContent).toBe('종결된 사건은 바꿀 수 없습니다.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(request).toHaveBeenCalledTimes(1);
  });
});
