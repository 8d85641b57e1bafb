import {
  COMPANY_ROLES,
  type CompanyRole,
  INVITABLE_ROLES,
  type InvitableRole,
} from '@ansim/shared/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { TextInput } from '../../../components/text-input';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useDateTime } from '../../../lib/datetime';
import { isRequestError } from '../../../lib/request-error';
import {
  type Person,
  useChangeRole,
  useInvite,
  usePendingInvitations,
  usePeople,
  useRevokeInvitation,
} from '../api/company-settings';
import { SettingsSection } from './settings-section';

function InviteForm() {
  const { t } = useTranslation();
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('manager');
  const fieldError = isRequestError(invite.error) ? invite.error.details?.email : undefined;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        invite.mutate(
          { email: email.trim(), role },
          {
            onSuccess: () => {
              showSnackbar(t('settings.invite.sent', { email: email.trim() }), 'success');
              setEmail('');
            },
          },
        );
      }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextInput
          label={t('settings.invite.email')}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(fieldError)}
          helperText={fieldError}
          required
          sx={{ flex: 2 }}
          slotProps={{ htmlInput: { 'data-testid': 'invite-email' } }}
        />
        <TextInput
          select
          label={t('settings.invite.role')}
          value={role}
          onChange={(event) => setRole(event.target.value as InvitableRole)}
          helperText={t(`settings.roleHelp.${role}`)}
          sx={{ flex: 1, minWidth: 160 }}
          slotProps={{ htmlInput: { 'data-testid': 'invite-role' } }}
        >
          {INVITABLE_ROLES.map((value) => (
            <option key={value} value={value}>
              {t(`settings.roles.${value}`)}
            </option>
          ))}
        </TextInput>
        <Button
          type="submit"
          variant="contained"
          disabled={invite.isPending || !email.trim()}
          sx={{ mt: { sm: 1 } }}
        >
          {t('settings.invite.submit')}
        </Button>
      </Stack>
      {invite.error && !fieldError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {isRequestError(invite.error, 'NOT_FOUND')
            ? t('settings.invite.unavailable')
            : invite.error.message}
        </Alert>
      )}
    </Box>
  );
}

function PendingInvitations() {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const invitations = usePendingInvitations();
  const revoke = useRevokeInvitation();
  if (invitations.isPending) return <Skeleton variant="rounded" height={48} />;
  if (!invitations.data?.length) return <Alert severity="info">{t('settings.invite.none')}</Alert>;
  return (
    <List dense aria-label={t('settings.invite.pending')}>
      {invitations.data.map((invitation) => (
        <ListItem
          key={invitation.id}
          divider
          secondaryAction={
            <Button
              size="small"
              color="error"
              disabled={revoke.isPending}
              onClick={() =>
                revoke.mutate(invitation.id, {
                  onSuccess: () => showSnackbar(t('settings.invite.revoked'), 'success'),
                })
              }
            >
              {t('settings.invite.revoke')}
            </Button>
          }
          sx={{ pr: 12 }}
        >
          <ListItemText
            primary={`${invitation.email} · ${t(`settings.roles.${invitation.role}`)}`}
            secondary={[
              invitation.invited_by ? t('settings.invite.invitedBy', { name: invitation.invited_by }) : null,
              t('settings.invite.expires', { date: date(invitation.expires_at) }),
            ]
              .filter(Boolean)
              .join(' · ')}
            slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}

function RoleSelect({
  person,
  onChange,
  fullWidth = false,
}: {
  person: Person;
  onChange: (role: CompanyRole) => void;
  fullWidth?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      select
      size="small"
      fullWidth={fullWidth}
      value={person.role}
      onChange={(event) => onChange(event.target.value as CompanyRole)}
      slotProps={{
        htmlInput: { 'aria-label': t('settings.people.roleOf', { name: person.name }) },
      }}
      sx={{ minWidth: 140 }}
    >
      {COMPANY_ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`settings.roles.${role}`)}
        </option>
      ))}
    </TextInput>
  );
}

function MfaChip({ person }: { person: Person }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={person.has_mfa ? 'success' : 'default'}
      variant={person.has_mfa ? 'filled' : 'outlined'}
      label={person.has_mfa ? t('settings.people.mfaOn') : t('settings.people.mfaOff')}
    />
  );
}

interface PeopleViewProps {
  people: Person[];
  currentUserId?: string;
  onRole: (person: Person, role: CompanyRole) => void;
  onRemove: (person: Person) => void;
}

function PeopleTableView({ people, currentUserId, onRole, onRemove }: PeopleViewProps) {
  const { t } = useTranslation();
  const { date } = useDateTime();
  return (
    <TableContainer
      tabIndex={0}
      aria-label={t('settings.people.heading')}
      sx={{ overflowX: 'auto', position: 'relative' }}
    >
      {/* position: the hidden column label is absolutely placed; it must stay inside the scroll box. */}
      <Table size="small" data-testid="people-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.people.name')}</TableCell>
            <TableCell>{t('settings.people.email')}</TableCell>
            <TableCell>{t('settings.people.role')}</TableCell>
            <TableCell>{t('settings.people.mfa')}</TableCell>
            <TableCell>{t('settings.people.joined')}</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                {t('settings.people.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {people.map((person) => (
            <TableRow key={person.id} data-testid={`person-${person.email}`}>
              <TableCell>
                {person.name}
                {person.id === currentUserId && ` (${t('settings.people.you')})`}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>{person.email}</TableCell>
              <TableCell>
                <RoleSelect person={person} onChange={(role) => onRole(person, role)} />
              </TableCell>
              <TableCell>
                <MfaChip person={person} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{date(person.joined_at)}</TableCell>
              <TableCell>
                {person.role !== 'member' && (
                  <Button size="small" color="error" onClick={() => onRemove(person)}>
                    {t('settings.people.remove')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * Below `sm` six columns do not fit: an address broke after every few letters and the MFA, joined and remove
 * columns sat behind a sideways scroll. One card per person shows all of it at full width instead.
 */
function PeopleCards({ people, currentUserId, onRole, onRemove }: PeopleViewProps) {
  const { t } = useTranslation();
  const { date } = useDateTime();
  return (
    <Stack
      component="ul"
      spacing={1.5}
      aria-label={t('settings.people.heading')}
      data-testid="people-cards"
      sx={{ listStyle: 'none', p: 0, m: 0 }}
    >
      {people.map((person) => (
        <Paper
          component="li"
          variant="outlined"
          key={person.id}
          data-testid={`person-${person.email}`}
          sx={{ p: 2 }}
        >
          <Typography component="p" sx={{ fontWeight: 700 }}>
            {person.name}
            {person.id === currentUserId && ` (${t('settings.people.you')})`}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            data-testid="person-email"
            sx={{ overflowWrap: 'anywhere', mb: 1.5 }}
          >
            {person.email}
          </Typography>
          <RoleSelect person={person} onChange={(role) => onRole(person, role)} fullWidth />
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <MfaChip person={person} />
            <Typography variant="body2" color="text.secondary">
              {t('settings.people.joinedOn', { date: date(person.joined_at) })}
            </Typography>
          </Stack>
          {person.role !== 'member' && (
            <Button
              size="small"
              color="error"
              variant="outlined"
              fullWidth
              onClick={() => onRemove(person)}
              sx={{ mt: 1.5 }}
            >
              {t('settings.people.remove')}
            </Button>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

function PeopleList({ currentUserId }: { currentUserId?: string }) {
  const { t } = useTranslation();
  const theme = useTheme();
  // Read at once, so a phone never lays out the table first and then swaps it.
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const people = usePeople();
  const changeRole = useChangeRole();
  const [removing, setRemoving] = useState<Person | null>(null);
  const apply = (person: Person, role: CompanyRole) =>
    changeRole.mutate(
      { id: person.id, role },
      {
        onSuccess: () =>
          showSnackbar(
            t('settings.people.changed', { name: person.name, role: t(`settings.roles.${role}`) }),
            'success',
          ),
        onError: (error) => showSnackbar(error.message, 'error'),
      },
    );
  if (people.isPending) return <Skeleton variant="rounded" height={160} />;
  if (people.error) return <Alert severity="error">{people.error.message}</Alert>;
  if (!people.data.length) return <Alert severity="info">{t('settings.people.empty')}</Alert>;
  const handlers = people.data.filter((person) => person.role !== 'member').length;
  const View = isPhone ? PeopleCards : PeopleTableView;
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <Chip label={t('settings.people.handlers', { count: handlers })} />
        <Chip
          variant="outlined"
          label={t('settings.people.members', { count: people.data.length - handlers })}
        />
      </Stack>
      <View
        people={people.data}
        currentUserId={currentUserId}
        onRole={(person, role) => (role === 'member' ? setRemoving(person) : apply(person, role))}
        onRemove={setRemoving}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('settings.people.remove')}
        body={removing ? t('settings.people.removeConfirm', { name: removing.name }) : ''}
        confirmLabel={t('settings.people.remove')}
        cancelLabel={t('settings.cancel')}
        onConfirm={() => removing && apply(removing, 'member')}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

export function PeopleTab({ currentUserId }: { currentUserId?: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <SettingsSection
        title={t('settings.invite.heading')}
        intro={t('settings.invite.intro')}
        testId="invite-section"
      >
        <InviteForm />
        <Box sx={{ mt: 3 }}>
          <PendingInvitations />
        </Box>
      </SettingsSection>
      <SettingsSection title={t('settings.people.heading')} intro={t('settings.people.intro')}>
        <PeopleList currentUserId={currentUserId} />
      </SettingsSection>
    </Stack>
  );
}
