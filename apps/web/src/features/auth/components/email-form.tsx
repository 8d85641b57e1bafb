import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/form-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { errorText } from '../../../lib/messages';
import type { RequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';

type EmailValues = { email: string };

/** One e-mail form: the reset link (/forgot-password) or a new confirmation mail (/register/resend). */
export function EmailForm({
  idPrefix,
  submitLabel,
  successText,
  send,
  isPending,
}: {
  idPrefix: string;
  submitLabel: string;
  successText: string;
  send: (values: EmailValues) => Promise<unknown>;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const [sent, setSent] = useState(false);
  const { control, handleSubmit, setError } = useForm<EmailValues>({
    resolver: lazyResolver(() => import('../form-resolvers').then((m) => m.emailResolver)),
    defaultValues: { email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setSent(false);
    try {
      await send(values);
      setSent(true);
    } catch (error) {
      setFailure(applyServerErrors(error, setError, ['email']));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      {sent && <FormAlert severity="success">{successText}</FormAlert>}
      <Stack spacing={2.5}>
        <FormTextField
          control={control}
          name="email"
          id={`${idPrefix}-email`}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={isPending}>
          {isPending ? t('common.sending') : submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}
