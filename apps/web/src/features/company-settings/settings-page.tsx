import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ManagerGate } from '../../components/manager-gate';
import { PageShell } from '../../components/page-shell';
import { paths } from '../../config/paths';
import { isRequestError } from '../../lib/request-error';
import { useCompanySettings } from './api/company-settings';
import { AuditTab } from './components/audit-tab';
import { DeadlinesTab } from './components/deadlines-tab';
import { DomainsTab } from './components/domains-tab';
import { JoinCodeTab } from './components/join-code-tab';
import { NoticesTab } from './components/notices-tab';
import { PeopleTab } from './components/people-tab';
import { useCompanyAdmin } from './use-company-admin';
import './settings-copy';

export const SETTINGS_TABS = ['people', 'domains', 'joinCode', 'deadlines', 'notices', 'audit'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

function AdminOnly() {
  const { t } = useTranslation();
  return (
    <PageShell title={t('settings.forbidden.title')}>
      <Alert severity="warning" sx={{ mb: 3 }}>
        {t('settings.forbidden.body')}
      </Alert>
      <Button variant="outlined" component={RouterLink} to={paths.manager.to()}>
        {t('settings.backToCases')}
      </Button>
    </PageShell>
  );
}

function SettingsConsole() {
  const { t } = useTranslation();
  const { isAdmin, user } = useCompanyAdmin();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: SettingsTab = SETTINGS_TABS.includes(requested as SettingsTab)
    ? (requested as SettingsTab)
    : 'people';
  const settings = useCompanySettings();

  if (!isAdmin || isRequestError(settings.error, 'FORBIDDEN')) return <AdminOnly />;

  return (
    <PageShell
      title={t('settings.title')}
      subtitle={settings.data ? t('settings.subtitle', { company: settings.data.name }) : undefined}
      maxWidth="lg"
    >
      <Button component={RouterLink} to={paths.manager.to()} size="small" sx={{ mb: 2 }}>
        {t('settings.backToCases')}
      </Button>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, next: SettingsTab) => setSearchParams({ tab: next }, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('settings.tabs.label')}
        >
          {SETTINGS_TABS.map((value) => (
            <Tab
              key={value}
              value={value}
              label={t(`settings.tabs.${value}`)}
              id={`settings-tab-${value}`}
              aria-controls={`settings-panel-${value}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`}>
        {settings.error ? (
          <Alert severity="error">{settings.error.message}</Alert>
        ) : !settings.data ? (
          <Skeleton variant="rounded" height={240} />
        ) : tab === 'people' ? (
          <PeopleTab currentUserId={user?.id} />
        ) : tab === 'domains' ? (
          <DomainsTab />
        ) : tab === 'joinCode' ? (
          <JoinCodeTab settings={settings.data} />
        ) : tab === 'deadlines' ? (
          <DeadlinesTab key={settings.dataUpdatedAt} settings={settings.data} />
        ) : tab === 'notices' ? (
          <NoticesTab key={settings.dataUpdatedAt} settings={settings.data} />
        ) : (
          <AuditTab />
        )}
      </Box>
    </PageShell>
  );
}

export default function CompanySettingsPage() {
  return (
    <ManagerGate>
      <SettingsConsole />
    </ManagerGate>
  );
}
