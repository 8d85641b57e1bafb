import type { CaseInvitation, ManagerCase } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip, { type ChipProps } from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { formatDate, formatDateTime } from '../../../lib/datetime';
import { useOpenedOnce } from '../../../lib/use-opened-once';
import { useResendInvitation, useRevokeInvitation, useSendInvitations } from '../api/invitations';
import { type InvitationStatus, invitationStatus, isActiveInvitation } from '../lib/case-state';
import { Subheading } from './section';

const RevokeInvitationDialog = lazy(() => import('./revoke-invitation-dialog'));

const STATUS_COLORS: Record<InvitationStatus, ChipProps['color']> = {
  sent: 'default',
  opened: 'info',
  acknowledged: 'info',
  responded: 'success',
  expired: 'warning',
  revoked: 'default',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function InvitationRow({
  invitation,
  reportId,
  isClosed,
}: {
  invitation: CaseInvitation;
  reportId: string;
  isClosed: boolean;
}) {
  const { t, i18n } = useTranslation();
  const resend = useResendInvitation(reportId);
  const revoke = useRevokeInvitation(reportId);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const revokeOpened = useOpenedOnce(confirmRevoke);
  const status = invitationStatus(invitation);
  const error = resend.error ?? revoke.error;
  const steps: [string, string | null][] = [
    ['sentAt', invitation.sent_at],
    ['openedAt', invitation.opened_at],
    ['acknowledgedAt', invitation.acknowledged_at],
    ['respondedAt', invitation.responded_at],
    ['revokedAt', invitation.revoked_at],
  ];
  return (
    <Box
      component="li"
      sx={{ py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}
      data-testid="invitation"
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip size="small" variant="outlined" label={t(`manager.invitations.kind.${invitation.kind}`)} />
        <Typography component="span" sx={{ fontWeight: 700 }}>
          {invitation.name}
        </Typography>
        <Typography component="span" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {invitation.email}
        </Typography>
        <Chip
          size="small"
          color={STATUS_COLORS[status]}
          label={t(`manager.invitations.status.${status}`)}
          data-testid="invitation-status"
        />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {steps
          .filter(([, at]) => at)
          .map(([step, at]) => t(`manager.invitations.${step}`, { at: formatDateTime(at, i18n.language) }))
          .join(' · ')}
        {' · '}
        {t('manager.invitations.expiresAt', { at: formatDate(invitation.expires_at, i18n.language) })}
        {invitation.kind === 'defendant' &&
          ` · ${invitation.share_evidence ? t('manager.invitations.evidenceShared') : t('manager.invitations.evidenceNotShared')}`}
      </Typography>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error.message}
        </Alert>
      )}
      {/* A statement that came in is done: a new link would only invite a second one. */}
      {!isClosed && !invitation.responded_at && (
        <Box className="no-print" sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
          <Button
            size="small"
            variant="outlined"
            disabled={resend.isPending}
            onClick={() =>
              resend.mutate(invitation.id, {
                onSuccess: () =>
                  showSnackbar(t('manager.invitations.resent', { name: invitation.name }), 'success'),
              })
            }
          >
            {t('manager.invitations.resend')}
          </Button>
          {!invitation.revoked_at && (
            <Button size="small" color="error" onClick={() => setConfirmRevoke(true)}>
              {t('manager.invitations.revoke')}
            </Button>
          )}
        </Box>
      )}
      {revokeOpened && (
        <Suspense fallback={null}>
          <RevokeInvitationDialog
            invitation={invitation}
            open={confirmRevoke}
            isPending={revoke.isPending}
            onCancel={() => setConfirmRevoke(false)}
            onConfirm={() => revoke.mutate(invitation.id, { onSettled: () => setConfirmRevoke(false) })}
          />
        </Suspense>
      )}
    </Box>
  );
}

/** Inviting the accused person: the reporter's address by default, or one the manager types. */
function DefendantInvite({ report }: { report: ManagerCase }) {
  const { t, i18n } = useTranslation();
  const mutation = useSendInvitations(report.id);
  const [email, setEmail] = useState(report.form.perpetrator_email ?? '');
  const [shareEvidence, setShareEvidence] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const active = report.invitations.some(
    (invitation) => invitation.kind === 'defendant' && isActiveInvitation(invitation),
  );
  const responded = report.invitations.find(
    (invitation) => invitation.kind === 'defendant' && invitation.responded_at && !invitation.revoked_at,
  );
  if (responded?.responded_at) {
    return (
      <Typography variant="body2" data-testid="defendant-responded">
        {t('manager.invitations.defendantResponded', {
          at: formatDateTime(responded.responded_at, i18n.language),
        })}
      </Typography>
    );
  }
  if (active) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('manager.invitations.defendantActive')}
      </Typography>
    );
  }
  return (
    <Box
      component="form"
      noValidate
      className="no-print"
      onSubmit={(event) => {
        event.preventDefault();
        const address = email.trim();
        if (!EMAIL.test(address)) {
          setInvalid(true);
          return;
        }
        mutation.mutate(
          { invitations: [{ kind: 'defendant', email: address }], share_evidence: shareEvidence },
          { onSuccess: () => showSnackbar(t('manager.invitations.sent'), 'success') },
        );
      }}
      sx={{ display: 'grid', gap: 1 }}
    >
      {mutation.error && (
        <Alert severity="error" role="alert">
          {mutation.error.message}
        </Alert>
      )}
      <TextInput
        id="invite-defendant-email"
        size="small"
        type="email"
        label={t('manager.invitations.defendantEmail', {
          name: report.form.perpetrator_name || t('manager.invitations.kind.defendant'),
        })}
        helperText={
          invalid ? t('manager.invitations.emailInvalid') : t('manager.invitations.defendantEmailHelp')
        }
        error={invalid}
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setInvalid(false);
        }}
      />
      <FormControlLabel
        control={
          // A choice sent with the invitation, not one that acts at once: a checkbox, not a switch.
          <Checkbox checked={shareEvidence} onChange={(event) => setShareEvidence(event.target.checked)} />
        }
        label={t('manager.invitations.shareEvidence')}
      />
      <Typography variant="body2" color="text.secondary">
        {t('manager.invitations.shareEvidenceHelp')}
      </Typography>
      <Box>
        <Button type="submit" variant="contained" disabled={mutation.isPending}>
          {t('manager.invitations.inviteDefendant')}
        </Button>
      </Box>
    </Box>
  );
}

function WitnessInvites({ report }: { report: ManagerCase }) {
  const { t } = useTranslation();
  const mutation = useSendInvitations(report.id);
  const invited = new Set(
    report.invitations
      .filter((invitation) => invitation.witness_index !== null && isActiveInvitation(invitation))
      .map((invitation) => invitation.witness_index),
  );
  if (report.form.witnesses.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('manager.invitations.noWitnesses')}
      </Typography>
    );
  }
  return (
    <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
      {mutation.error && (
        <Box component="li">
          <Alert severity="error" role="alert">
            {mutation.error.message}
          </Alert>
        </Box>
      )}
      {report.form.witnesses.map((witness, index) => (
        <Box
          component="li"
          // biome-ignore lint/suspicious/noArrayIndexKey: the index is how the API names a reported witness.
          key={index}
          sx={{
            display: 'flex',
            gap: 1,
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>
              {witness.name || t('manager.case.witnessN', { n: index + 1 })}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {witness.email ?? t('manager.invitations.noEmail')}
            </Typography>
          </Box>
          {invited.has(index) ? (
            <Chip size="small" label={t('manager.invitations.alreadyInvited')} />
          ) : (
            <Button
              size="small"
              variant="outlined"
              className="no-print"
              disabled={!witness.email || mutation.isPending}
              onClick={() =>
                mutation.mutate(
                  { invitations: [{ kind: 'reference', witness_index: index }], share_evidence: false },
                  { onSuccess: () => showSnackbar(t('manager.invitations.sent'), 'success') },
                )
              }
            >
              {t('manager.invitations.inviteWitness')}
            </Button>
          )}
        </Box>
      ))}
    </Box>
  );
}

/** A witness the reporter did not name, found during the investigation. */
function ExtraWitnessInvite({ reportId }: { reportId: string }) {
  const { t } = useTranslation();
  const mutation = useSendInvitations(reportId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: boolean; email?: boolean }>({});
  return (
    <Box
      component="form"
      noValidate
      className="no-print"
      onSubmit={(event) => {
        event.preventDefault();
        const next = { name: !name.trim(), email: !EMAIL.test(email.trim()) };
        setErrors(next);
        if (next.name || next.email) return;
        mutation.mutate(
          {
            invitations: [{ kind: 'reference', name: name.trim(), email: email.trim() }],
            share_evidence: false,
          },
          {
            onSuccess: () => {
              setName('');
              setEmail('');
              showSnackbar(t('manager.invitations.sent'), 'success');
            },
          },
        );
      }}
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr auto' },
        alignItems: 'start',
      }}
    >
      {mutation.error && (
        <Alert severity="error" role="alert" sx={{ gridColumn: '1 / -1' }}>
          {mutation.error.message}
        </Alert>
      )}
      <TextInput
        id="invite-extra-name"
        size="small"
        label={t('manager.invitations.extraName')}
        value={name}
        error={Boolean(errors.name)}
        helperText={errors.name ? t('manager.invitations.nameRequired') : undefined}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <TextInput
        id="invite-extra-email"
        size="small"
        type="email"
        label={t('manager.invitations.extraEmail')}
        value={email}
        error={Boolean(errors.email)}
        helperText={errors.email ? t('manager.invitations.emailInvalid') : undefined}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Button type="submit" variant="outlined" disabled={mutation.isPending}>
        {t('manager.invitations.inviteExtra')}
      </Button>
    </Box>
  );
}

/**
 * The acts' evidence files that the accused person never gets, even with the evidence shared: their metadata
 * could not be removed, so they may still name the reporter (the API holds them back as well).
 */
export function heldBackFiles(report: Pick<ManagerCase, 'files' | 'form'>): ManagerCase['files'] {
  const ofActs = new Set((report.form.acts ?? []).flatMap((act) => act.evidences ?? []));
  return report.files.filter((file) => file.metadata === 'unremovable' && ofActs.has(file.id));
}

export function InvitationsPanel({ report }: { report: ManagerCase }) {
  const { t } = useTranslation();
  const heldBack = heldBackFiles(report);
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {t('manager.invitations.intro')}
      </Typography>
      {heldBack.length > 0 && (
        <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="evidence-held-back">
          {t('manager.invitations.heldBack', { names: heldBack.map((file) => file.name).join(', ') })}
        </Alert>
      )}
      {report.invitations.length > 0 && (
        <>
          <Subheading>{t('manager.invitations.sentHeading')}</Subheading>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {report.invitations.map((invitation) => (
              <InvitationRow
                key={invitation.id}
                invitation={invitation}
                reportId={report.id}
                isClosed={report.is_closed}
              />
            ))}
          </Box>
        </>
      )}
      {report.is_closed ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="invitations-closed">
          {t('manager.closed.invitations')}
        </Typography>
      ) : (
        <>
          <Subheading>{t('manager.invitations.defendantHeading')}</Subheading>
          <DefendantInvite report={report} />
          <Subheading>{t('manager.invitations.witnessHeading')}</Subheading>
          <WitnessInvites report={report} />
          <Subheading>{t('manager.invitations.extraHeading')}</Subheading>
          <ExtraWitnessInvite reportId={report.id} />
        </>
      )}
    </Box>
  );
}
