import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import RevokeInvitationDialog from './revoke-invitation-dialog';

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

function openDialog(isPending = false) {
  const onCancel = vi.fn();
  const onConfirm = vi.fn();
  render(
    <RevokeInvitationDialog
      invitation={{ id: 'inv-1', name: '박행위' }}
      open
      isPending={isPending}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />,
  );
  const dialog = within(screen.getByRole('dialog', { name: '진술 요청을 취소할까요?' }));
  return { dialog, onCancel, onConfirm };
}

// A confirmation without fields: what it guards is that only the confirm button revokes.
describe('the revoke invitation dialog', { timeout: 30_000 }, () => {
  it('names whose link stops working and revokes only on confirmation', () => {
    const { dialog, onCancel, onConfirm } = openDialog();
    expect(dialog.getByText(/박행위님에게 보낸 링크가 더 이상 열리지 않습니다/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: '요청 취소' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('revokes nothing on cancel or Escape', () => {
    const { dialog, onCancel, onConfirm } = openDialog();
    fireEvent.click(dialog.getByRole('button', { name: '취소' }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('cannot be confirmed twice while the revocation is on its way', () => {
    const { dialog, onConfirm } = openDialog(true);
    const confirm = dialog.getByRole('button', { name: '요청 취소' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
