import type { CaseInvitation } from '@ansim/shared/contract/manager';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

/** Asks before a link stops working: the invitee may be halfway through a statement. */
export default function RevokeInvitationDialog({
  invitation,
  open,
  isPending,
  onCancel,
  onConfirm,
}: {
  invitation: Pick<CaseInvitation, 'id' | 'name'>;
  open: boolean;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={`revoke-${invitation.id}`}>
      <DialogTitle id={`revoke-${invitation.id}`}>{t('manager.invitations.revokeTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('manager.invitations.revokeBody', { name: invitation.name })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('manager.common.cancel')}</Button>
        <Button color="error" variant="contained" disabled={isPending} onClick={onConfirm}>
          {t('manager.invitations.revoke')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
