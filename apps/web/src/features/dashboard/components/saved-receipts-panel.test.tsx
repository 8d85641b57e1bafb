import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { useSavedReceipts } from '../../../stores/saved-receipts';
import { PendingReceiptsPanel, SavedReceiptsPanel } from './saved-receipts-panel';

const request = vi.fn();
vi.mock('../../../lib/request', () => ({ request: (...args: unknown[]) => request(...args) }));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  request.mockReset();
  localStorage.clear();
  useSavedReceipts.setState({ receipts: [] });
});

const renderWith = (node: React.ReactNode) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

describe('dashboard: anonymous reports through receipts on this device', () => {
  it('says anonymous reports are listed only through receipts saved here, and shows only their last digits', () => {
    useSavedReceipts.getState().save('1234 5678 9012 3456');
    renderWith(<SavedReceiptsPanel />);
    const panel = screen.getByTestId('saved-receipts');
    expect(panel.textContent).toContain('이 기기에 저장한 접수번호가 있을 때만 여기에 보이며');
    const [item] = within(panel).getAllByTestId('saved-receipt');
    expect(item!.textContent).toContain('접수번호 끝자리 3456');
    expect(item!.textContent).not.toContain('1234');
    fireEvent.click(
      within(item!).getByRole('button', { name: '끝자리가 3456인 접수번호를 이 기기에서 지우기' }),
    );
    expect(screen.getByText('이 기기에 저장한 접수번호가 없습니다.')).toBeTruthy();
  });

  it('shows a migrated receipt once, grouped, until the member says it is saved', async () => {
    request.mockImplementation((method: string) =>
      method === 'get'
        ? Promise.resolve([{ receipt: '1111222233334444', case_number: '2026-0001', created_at: '' }])
        : Promise.resolve(undefined),
    );
    renderWith(<PendingReceiptsPanel enabled />);
    expect((await screen.findByTestId('receipt-number')).textContent).toBe('1111 2222 3333 4444');
    fireEvent.click(screen.getByRole('button', { name: '저장했습니다' }));
    await waitFor(() => expect(screen.queryByTestId('pending-receipts')).toBeNull());
    expect(request).toHaveBeenCalledWith('delete', '/api/v1/user/pending-receipts');
  });
});
