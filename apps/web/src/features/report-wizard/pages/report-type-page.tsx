import { REPORTER_TYPES, type ReporterReportType, STEPS_BY_TYPE } from '@ansim/shared/constants';
import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { AnonymityFacts } from '../../../components/anonymity-facts';
import { useCurrentUser } from '../../../components/header/use-current-user';
import { PageShell } from '../../../components/page-shell';
import { pageSections, paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../../lib/login-state';
import { useReportForm } from '../../../stores/report-form-store';
import '../../../locales/report-copy';
import { reportTypeLabel } from '../../../lib/report-type-labels';

const ICONS: Record<ReporterReportType, typeof CampaignOutlinedIcon> = {
  anonym: VisibilityOffOutlinedIcon,
  brief: CampaignOutlinedIcon,
  formal: DescriptionOutlinedIcon,
};

const FACTS = ['sees', 'notSees', 'next'] as const;

/** What the company will and will not see, and what happens next: said plainly before anything is typed. */
function TypeFacts({ type }: { type: ReporterReportType }) {
  const { t } = useTranslation();
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.5, width: '100%' }}>
      {FACTS.map((fact) => (
        <Box key={fact}>
          <Typography component="dt" variant="body2" sx={{ fontWeight: 700 }}>
            {t(`report.facts.${fact}`)}
          </Typography>
          <Typography component="dd" variant="body2" color="text.secondary" sx={{ m: 0 }}>
            {t(`report.typeFacts.${type}.${fact}`)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export default function ReportTypePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = useReportForm((state) => state.form.report_type);
  const setReportType = useReportForm((state) => state.setReportType);
  const isLoggedIn = useIsLoggedIn();
  const { data: user } = useCurrentUser();
  // Brief and formal reports go to the account's company: someone without one learns it here, with what to
  // do, before typing anything (the server would refuse the submission with NO_COMPANY).
  const hasNoCompany = isLoggedIn && user !== undefined && user.company === null;

  const choose = (type: ReporterReportType) => {
    setReportType(type);
    navigate(paths.reportT.to());
  };

  return (
    <PageShell title={t('report.title')} subtitle={t('report.subtitle')} maxWidth="lg">
      {hasNoCompany && (
        <Alert severity="warning" sx={{ mb: 3 }} data-testid="report-no-company">
          <AlertTitle component="h2" sx={{ fontSize: '1rem', fontWeight: 700 }}>
            {t('report.noCompanyTitle')}
          </AlertTitle>
          {t('report.noCompany')}{' '}
          <Link component={RouterLink} to={`${paths.accountSecurity.to()}#${pageSections.joinCompany}`}>
            {t('report.noCompanyJoin')}
          </Link>
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {REPORTER_TYPES.map((type) => {
          const Icon = ICONS[type];
          const label = reportTypeLabel(t, type);
          const isCurrent = current === type;
          return (
            <Card
              key={type}
              variant="outlined"
              component="article"
              sx={{ borderColor: isCurrent ? 'primary.main' : undefined, borderWidth: isCurrent ? 2 : 1 }}
            >
              <CardActionArea
                onClick={() => choose(type)}
                aria-label={t('report.choose', { type: label })}
                data-testid={`report-type-${type}`}
                sx={{
                  p: 3,
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'flex-start',
                }}
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: '100%', mb: 1.5 }}>
                  <Icon color="primary" aria-hidden="true" />
                  <Typography variant="h2" sx={{ fontSize: '1.25rem', flex: 1 }}>
                    {label}
                  </Typography>
                  {isCurrent && <Chip size="small" color="primary" label={t('report.selected')} />}
                </Box>
                <Typography color="text.secondary" sx={{ mb: 2 }}>
                  {t(`report.types.${type}`)}
                </Typography>
                <TypeFacts type={type} />
                <Typography variant="body2" color="text.secondary" sx={{ mt: 'auto', pt: 2 }}>
                  {t('report.stepCount', { count: STEPS_BY_TYPE[type].length })}
                </Typography>
              </CardActionArea>
            </Card>
          );
        })}
      </Box>
      {!isLoggedIn && (
        <Typography color="text.secondary" sx={{ mt: 3 }} data-testid="report-no-account">
          {t('anonymous.chooserNoAccount')}{' '}
          <Link component={RouterLink} to={paths.receipt.to()}>
            {t('anonymous.receiptLink')}
          </Link>
        </Typography>
      )}
      <Box sx={{ mt: 4 }}>
        <AnonymityFacts showNamedNote />
      </Box>
    </PageShell>
  );
}
