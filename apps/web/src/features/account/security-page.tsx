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
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FormTextField } from '../../components/form/form-text-field';
import { useCurrentUser } from '../../components/header/use-current-user';
import { PageShell } from '../../components/page-shell';
import { showSnackbar } from '../../components/snackbar/snackbar-store';
import { paths } from '../../config/paths';
import { useDateTime } from '../../lib/datetime';
import { errorText } from '../../lib/messages';
import {
  type TotpStart,
  useConfirmTotp,
  usePasskeys,
  useRegenerateRecoveryCodes,
  useRegisterPasskey,
  useRemovePasskey,
  useRemoveTotp,
  useStartTotp,
} from './api/mfa';
import { CompanySection } from './company-section';
import { ActionAlert, useActionForm } from './use-action-form';

const resolvers = () => import('./action-resolvers');

function PasswordField<T extends FieldValues>({ control }: { control: Control<T> }) {
  const { t } = useTranslation();
  return (
    <FormTextField
      control={control}
      name={'password' as Path<T>}
      label={t('mfa.account.currentPassword')}
      type="password"
      autoComplete="current-password"
      required
    />
  );
}

/** Shown once, right after they are made: the server keeps only their hashes. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" sx={{ mb: 3 }} data-testid="recovery-codes">
      <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 700, mb: 1 }}>
        {t('mfa.account.recoveryTitle')}
      </Typography>
      <Typography sx={{ mb: 1.5 }}>{t('mfa.account.recoveryBody')}</Typography>
      <Box
        component="ul"
        sx={{
          fontFamily: 'monospace',
          fontSize: '1rem',
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 0.5,
          pl: 2.5,
          mb: 2,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Button variant="contained" onClick={onDone}>
        {t('mfa.account.recoverySaved')}
      </Button>
    </Alert>
  );
}

function TotpEnrolment({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [pending, setPending] = useState<TotpStart | null>(null);
  const { form, failure, submit } = useActionForm(() => resolvers().then((m) => m.totpConfirmResolver), {
    code: '',
    password: '',
  });

  const onStart = async () => {
    try {
      setPending(await start.mutateAsync(undefined));
    } catch (error) {
      showSnackbar(errorText(t, error), 'error');
    }
  };

  if (!pending) {
    return (
      <Button variant="contained" onClick={onStart} disabled={start.isPending}>
        {t('mfa.account.totpStart')}
      </Button>
    );
  }
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit(async (values) => {
        const { recovery_codes } = await confirm.mutateAsync(values);
        setPending(null);
        showSnackbar(t('mfa.account.totpDone'), 'success');
        onCodes(recovery_codes);
      })}
    >
      <Typography sx={{ mb: 2 }}>{t('mfa.account.totpScan')}</Typography>
      <Box
        component="img"
        src={pending.qr_data_url}
        alt={t('mfa.account.qrAlt')}
        sx={{ width: 200, height: 200, display: 'block', mb: 2, bgcolor: '#fff', borderRadius: 1 }}
      />
      <Typography variant="body2" color="text.secondary">
        {t('mfa.account.totpSecret')}
      </Typography>
      <Typography
        data-testid="totp-secret"
        sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all', mb: 2 }}
      >
        {pending.secret}
      </Typography>
      <ActionAlert failure={failure} />
      <Stack spacing={2}>
        <FormTextField
          control={form.control}
          name="code"
          label={t('mfa.account.totpCode')}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          required
        />
        <PasswordField control={form.control} />
        <Button type="submit" variant="contained" disabled={confirm.isPending}>
          {t('mfa.account.totpConfirm')}
        </Button>
      </Stack>
    </Box>
  );
}

function TotpRemoval() {
  const { t } = useTranslation();
  const remove = useRemoveTotp();
  const [open, setOpen] = useState(false);
  const { form, failure, submit } = useActionForm(() => resolvers().then((m) => m.totpDeleteResolver), {
    code: '',
    password: '',
  });
  if (!open)
    return (
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
        {t('mfa.account.totpRemove')}
      </Button>
    );
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit(async (values) => {
        await remove.mutateAsync(values);
        setOpen(false);
        showSnackbar(t('mfa.account.totpRemoved'), 'success');
      })}
    >
      <ActionAlert failure={failure} />
      <Stack spacing={2}>
        <FormTextField
          control={form.control}
          name="code"
          label={t('mfa.account.totpRemoveCode')}
          autoComplete="one-time-code"
          required
        />
        <PasswordField control={form.control} />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" color="error" disabled={remove.isPending}>
            {t('mfa.account.totpRemove')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('mfa.account.cancel')}</Button>
        </Stack>
      </Stack>
    </Box>
  );
}

function RegenerateCodes({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const regenerate = useRegenerateRecoveryCodes();
  const { form, failure, submit } = useActionForm(() => resolvers().then((m) => m.passwordOnlyResolver), {
    password: '',
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit(async (values) => {
        const { recovery_codes } = await regenerate.mutateAsync(values);
        form.reset();
        onCodes(recovery_codes);
      })}
    >
      <ActionAlert failure={failure} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <PasswordField control={form.control} />
        <Button type="submit" variant="outlined" disabled={regenerate.isPending} sx={{ mt: { sm: 1 } }}>
          {t('mfa.account.recoveryRegenerate')}
        </Button>
      </Stack>
    </Box>
  );
}

function PasskeyRegistration({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const register = useRegisterPasskey();
  const { form, failure, submit } = useActionForm(() => resolvers().then((m) => m.passkeyResolver), {
    name: t('mfa.account.passkeyDefaultName'),
    password: '',
  });
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit(async (values) => {
        const result = await register.mutateAsync(values);
        form.reset({ name: t('mfa.account.passkeyDefaultName'), password: '' });
        showSnackbar(t('mfa.account.passkeyDone'), 'success');
        if (result.recovery_codes) onCodes(result.recovery_codes);
      })}
    >
      <ActionAlert failure={failure} />
      <Stack spacing={2}>
        <FormTextField control={form.control} name="name" label={t('mfa.account.passkeyName')} required />
        <PasswordField control={form.control} />
        <Button type="submit" variant="contained" disabled={register.isPending}>
          {t('mfa.account.passkeyAdd')}
        </Button>
      </Stack>
    </Box>
  );
}

function PasskeyRemoval({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation();
  const remove = useRemovePasskey();
  const [open, setOpen] = useState(false);
  const { form, failure, submit } = useActionForm(() => resolvers().then((m) => m.passwordOnlyResolver), {
    password: '',
  });
  if (!open)
    return (
      <Button
        size="small"
        color="error"
        onClick={() => setOpen(true)}
        aria-label={t('mfa.account.passkeyRemoveOne', { name })}
      >
        {t('mfa.account.remove')}
      </Button>
    );
  return (
    <Box
      component="form"
      noValidate
      sx={{ mt: 1 }}
      onSubmit={submit(async (values) => {
        await remove.mutateAsync({ id, ...values });
        showSnackbar(t('mfa.account.passkeyRemoved'), 'success');
      })}
    >
      <ActionAlert failure={failure} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <PasswordField control={form.control} />
        <Button
          type="submit"
          color="error"
          variant="contained"
          disabled={remove.isPending}
          sx={{ mt: { sm: 1 } }}
        >
          {t('mfa.account.remove')}
        </Button>
        <Button onClick={() => setOpen(false)} sx={{ mt: { sm: 1 } }}>
          {t('mfa.account.cancel')}
        </Button>
      </Stack>
    </Box>
  );
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 3 }, mb: 3 }} data-testid={testId}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export default function SecurityPage() {
  const { t } = useTranslation();
  const { date } = useDateTime();
  const { data: user, isPending } = useCurrentUser();
  const passkeys = usePasskeys();
  const [codes, setCodes] = useState<string[] | null>(null);
  const mfa = user?.mfa;
  const hasFactor = Boolean(mfa && (mfa.totp || mfa.passkeys > 0));
  // The operator belongs to no company: no join code to ask for, and its console is where it goes next.
  const isOperator = user?.role === 'operator';

  return (
    <PageShell title={t('mfa.account.title')} subtitle={t('mfa.account.subtitle')}>
      {isPending || !mfa ? (
        <Skeleton variant="rounded" height={240} />
      ) : (
        <>
          {mfa.required && !hasFactor && (
            <Alert severity="warning" sx={{ mb: 3 }} data-testid="mfa-required">
              {t('mfa.account.required')}
            </Alert>
          )}
          {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
          {mfa.required && hasFactor && !codes && (
            <Alert severity="success" sx={{ mb: 3 }}>
              {t(isOperator ? 'mfa.account.operatorReady' : 'mfa.account.managerReady')}{' '}
              <Button
                component={RouterLink}
                to={isOperator ? paths.operator.to() : paths.manager.to()}
                size="small"
              >
                {t(isOperator ? 'mfa.account.toOperator' : 'mfa.account.toManager')}
              </Button>
            </Alert>
          )}
          {user && !isOperator && <CompanySection user={user} />}
          <Section title={t('mfa.account.totpHeading')} testId="totp-section">
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
              <Typography color="text.secondary">{t('mfa.account.totpBody')}</Typography>
            </Stack>
            <Chip
              sx={{ mb: 2 }}
              color={mfa.totp ? 'success' : 'default'}
              label={mfa.totp ? t('mfa.account.on') : t('mfa.account.off')}
            />
            <Box>{mfa.totp ? <TotpRemoval /> : <TotpEnrolment onCodes={setCodes} />}</Box>
          </Section>
          <Section title={t('mfa.account.passkeyHeading')} testId="passkey-section">
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('mfa.account.passkeyBody')}
            </Typography>
            {passkeys.data && passkeys.data.length > 0 && (
              <List dense sx={{ mb: 2 }}>
                {passkeys.data.map((key) => (
                  <ListItem key={key.id} divider sx={{ display: 'block' }}>
                    <ListItemText
                      primary={key.name}
                      secondary={t('mfa.account.passkeyAdded', {
                        date: date(key.created_at),
                      })}
                    />
                    <PasskeyRemoval id={key.id} name={key.name} />
                  </ListItem>
                ))}
              </List>
            )}
            <PasskeyRegistration onCodes={setCodes} />
          </Section>
          {hasFactor && (
            <Section title={t('mfa.account.recoveryHeading')} testId="recovery-section">
              <Typography sx={{ mb: 2 }} data-testid="recovery-left">
                {t('mfa.account.recoveryLeft', { count: mfa.recovery_codes_left })}
              </Typography>
              <RegenerateCodes onCodes={setCodes} />
            </Section>
          )}
        </>
      )}
    </PageShell>
  );
}
