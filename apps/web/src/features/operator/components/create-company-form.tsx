import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/form-alert';
import { FormTextField } from '../../../components/form/form-text-field';
import { showSnackbar } from '../../../components/snackbar/snackbar-store';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { errorText } from '../../../lib/messages';
import type { RequestError } from '../../../lib/request-error';
import { applyServerErrors } from '../../../lib/server-errors';
import { useCreateCompany } from '../api/companies';
import type { CreateCompanyFormValues as FormValues } from './create-company-resolver';
import { splitDomains } from './split-domains';

export function CreateCompanyForm() {
  const { t } = useTranslation();
  const create = useCreateCompany();
  const [failure, setFailure] = useState<RequestError | null>(null);
  const [created, setCreated] = useState<{ name: string; joinCode: string; adminEmail: string } | null>(null);
  const { control, handleSubmit, setError, reset } = useForm<FormValues>({
    resolver: lazyResolver(() => import('./create-company-resolver').then((m) => m.createCompanyResolver)),
    defaultValues: { name: '', domains: '', admin_email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const result = await create.mutateAsync({ ...values, domains: splitDomains(values.domains) });
      setCreated({ name: values.name, joinCode: result.join_code, adminEmail: values.admin_email });
      showSnackbar(t('operator.create.done', { name: values.name }), 'success');
      reset();
    } catch (error) {
      setFailure(applyServerErrors(error, setError, ['name', 'domains', 'admin_email']));
    }
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby="create-company-heading">
      <FormAlert>{failure && errorText(t, failure)}</FormAlert>
      {created && (
        <Alert severity="success" sx={{ mb: 2, overflowWrap: 'anywhere' }} role="status">
          <Typography>
            {t('operator.create.created', { name: created.name, email: created.adminEmail })}
          </Typography>
          <Typography sx={{ mt: 1 }}>
            {t('operator.create.joinCode')}{' '}
            <Box
              component="strong"
              data-testid="join-code"
              sx={{ fontFamily: 'monospace', fontSize: '1.1em' }}
            >
              {created.joinCode}
            </Box>
          </Typography>
        </Alert>
      )}
      <Stack spacing={2.5}>
        <FormTextField control={control} name="name" label={t('operator.create.name')} required />
        <FormTextField
          control={control}
          name="domains"
          label={t('operator.create.domains')}
          helperText={t('operator.create.domainsHelp')}
        />
        <FormTextField
          control={control}
          name="admin_email"
          label={t('operator.create.adminEmail')}
          type="email"
          autoComplete="off"
          helperText={t('operator.create.adminEmailHelp')}
          required
        />
        <Box>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? t('common.sending') : t('operator.create.submit')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
