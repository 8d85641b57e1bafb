import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/form-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { errorText } from '../../../lib/messages';
import { type RequestError, toRequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';
import { useMfaLogin } from '../api/login';

/**
 * The second step of a login whose password was right: a code from the authenticator app, a recovery code,
 * or a passkey. `onDone` runs once the session is open; `onRestart` goes back to the password when the
 * server no longer holds the half-finished login.
 */
export function MfaStep({ onDone, onRestart }: { onDone: () => void; onRestart: () => void }) {
  const { t } = useTranslation();
  const mfa = useMfaLogin();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const { control, handleSubmit, setError } = useForm<{ code: string }>({
    resolver: lazyResolver(() => import('../form-resolvers').then((m) => m.mfaCodeResolver)),
    defaultValues: { code: '' },
  });

  const run = async (input: { code: string } | { passkey: true }) => {
    setFailure(null);
    try {
      await mfa.mutateAsync(input);
      onDone();
    } catch (error) {
      const request = toRequestError(error);
      if (request.code === 'MFA_CHALLENGE_EXPIRED') return onRestart();
      // A passkey prompt the user closed is not a server error: say so plainly.
      if (error instanceof Error && error.name === 'NotAllowedError') {
        setFailure(null);
        return setError('code', { message: t('mfa.login.passkeyCancelled') });
      }
      setFailure(applyServerErrors(error, setError, ['code']) ?? request);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((values) => run(values))} data-testid="mfa-step">
      <Typography variant="h2" sx={{ fontSize: '1.15rem', mb: 1 }}>
        {t('mfa.login.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('mfa.login.body')}
      </Typography>
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="code"
          label={t('mfa.login.code')}
          helperText={t('mfa.login.codeHelp')}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'text', autoCapitalize: 'characters', spellCheck: false } }}
          autoFocus
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={mfa.isPending}>
          {mfa.isPending ? t('common.sending') : t('mfa.login.submit')}
        </Button>
        <Divider>{t('mfa.login.or')}</Divider>
        <Button
          variant="outlined"
          size="large"
          disabled={mfa.isPending}
          onClick={() => run({ passkey: true })}
        >
          {t('mfa.login.usePasskey')}
        </Button>
        <Button variant="text" onClick={onRestart}>
          {t('mfa.login.restart')}
        </Button>
      </Stack>
    </Box>
  );
}
