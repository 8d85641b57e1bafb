import type { CurrentUser } from '@ansim/shared/contract/user';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FormTextField } from '../../components/form/form-text-field';
import { showSnackbar } from '../../components/snackbar/snackbar-store';
import { pageSections } from '../../config/paths';
import { useJoinCompany } from './api/join-company';
import { ActionAlert, useActionForm } from './use-action-form';

const JOIN_SECTION_ID = pageSections.joinCompany;

/**
 * Which company the account reports to. A member whose address matched no company's domain joins one here
 * with the code the company handed out; until then only anonymous reports through the company's intake link
 * are possible (the type chooser says so and links here).
 */
export function CompanySection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const join = useJoinCompany();
  const { form, failure, submit } = useActionForm(
    () => import('./action-resolvers').then((m) => m.joinCompanyResolver),
    { join_code: '' },
  );
  const location = useLocation();
  const sectionRef = useRef<HTMLElement>(null);
  // Arriving from the type chooser's link: the section renders after the user is loaded, so the browser's
  // own jump to the anchor has already happened by then.
  useEffect(() => {
    if (location.hash === `#${JOIN_SECTION_ID}`) sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [location.hash]);
  return (
    <Paper
      variant="outlined"
      component="section"
      id={JOIN_SECTION_ID}
      ref={sectionRef}
      aria-labelledby={`${JOIN_SECTION_ID}-title`}
      sx={{ p: { xs: 2.5, sm: 3 }, mb: 3, scrollMarginTop: 80 }}
      data-testid="company-section"
    >
      <Typography id={`${JOIN_SECTION_ID}-title`} variant="h2" sx={{ fontSize: '1.2rem', mb: 2 }}>
        {t('companyJoin.heading')}
      </Typography>
      {user.company ? (
        <Typography data-testid="company-name">
          {t('companyJoin.member', { company: user.company.name })}
        </Typography>
      ) : (
        <Box
          component="form"
          noValidate
          onSubmit={submit(async (values) => {
            const updated = await join.mutateAsync(values);
            form.reset({ join_code: '' });
            showSnackbar(t('companyJoin.done', { company: updated.company?.name ?? '' }), 'success');
          })}
        >
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('companyJoin.body')}
          </Typography>
          <ActionAlert failure={failure} />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <FormTextField
              control={form.control}
              name="join_code"
              label={t('companyJoin.code')}
              helperText={t('companyJoin.codeHelp')}
              autoComplete="off"
              required
              sx={{ flex: 1 }}
            />
            <Button type="submit" variant="contained" disabled={join.isPending} sx={{ mt: { sm: 1 } }}>
              {t('companyJoin.submit')}
            </Button>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
