import type { CaseHandler, ManagerCase } from '@ansim/shared/contract/manager';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/text-input';
import { useManagerAccess } from '../../../hooks/use-manager-access';
import { formatDateTime } from '../../../lib/datetime';
import { useAddExclusion, useSetAssignees } from '../api/assignees';

function roleLabel(t: ReturnType<typeof useTranslation>['t'], role: string) {
  return t(`manager.assignees.roles.${role}`, { defaultValue: role });
}

/** Who handles the case; a manager or admin picks the handlers and keeps a colleague away (conflict of interest). */
export function AssigneesPanel({ report }: { report: ManagerCase }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {report.assignees.length === 0 ? (
        <Typography color="text.secondary">{t('manager.assignees.none')}</Typography>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="assignee-list">
          {report.assignees.map((handler) => (
            <Chip key={handler.id} label={`${handler.name} · ${roleLabel(t, handler.role)}`} />
          ))}
        </Box>
      )}
      {report.can_assign &&
        (report.is_closed ? (
          <Typography variant="body2" color="text.secondary" data-testid="assignees-closed">
            {t('manager.closed.assignees')}
          </Typography>
        ) : (
          <AssignForm key={report.assignees.map((a) => a.id).join()} report={report} />
        ))}
      {report.can_assign && <ExclusionForm report={report} />}
    </Box>
  );
}

function AssignForm({ report }: { report: ManagerCase }) {
  const { t } = useTranslation();
  const mutation = useSetAssignees(report.id);
  const [selected, setSelected] = useState(() => new Set(report.assignees.map((handler) => handler.id)));
  const toggle = (handler: CaseHandler, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(handler.id);
      else next.delete(handler.id);
      return next;
    });
  return (
    <Box
      component="form"
      className="no-print"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        mutation.mutate([...selected]);
      }}
    >
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <Typography component="legend" sx={{ fontWeight: 600, mb: 0.5 }}>
          {t('manager.assignees.choose')}
        </Typography>
        <FormGroup data-testid="assignee-options">
          {report.assignable_handlers.map((handler) => (
            <FormControlLabel
              key={handler.id}
              control={
                <Checkbox
                  checked={selected.has(handler.id)}
                  onChange={(event) => toggle(handler, event.target.checked)}
                />
              }
              label={`${handler.name} (${roleLabel(t, handler.role)})`}
            />
          ))}
        </FormGroup>
      </Box>
      {mutation.error && (
        <Alert severity="error" sx={{ my: 1 }}>
          {mutation.error.message}
        </Alert>
      )}
      <Button type="submit" variant="outlined" disabled={mutation.isPending} data-testid="save-assignees">
        {t('manager.assignees.save')}
      </Button>
    </Box>
  );
}

const REASONS = ['accused_name', 'accused_email', 'manual'] as const;

function ExclusionForm({ report }: { report: ManagerCase }) {
  const { t, i18n } = useTranslation();
  const { user } = useManagerAccess();
  const mutation = useAddExclusion(report.id);
  const [userId, setUserId] = useState('');
  const candidates = report.assignable_handlers.filter((handler) => handler.id !== user?.id);
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Typography sx={{ fontWeight: 600 }}>{t('manager.assignees.exclusions')}</Typography>
      {report.exclusions.length === 0 ? (
        <Typography color="text.secondary">{t('manager.assignees.noExclusions')}</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="exclusion-list">
          {report.exclusions.map((exclusion) => (
            <li key={exclusion.id}>
              {exclusion.name} —{' '}
              {t(
                `manager.assignees.reasons.${REASONS.includes(exclusion.reason) ? exclusion.reason : 'manual'}`,
              )}{' '}
              ({formatDateTime(exclusion.created_at, i18n.language)})
            </li>
          ))}
        </Box>
      )}
      <Typography variant="body2" color="text.secondary">
        {t('manager.assignees.exclusionHelp')}
      </Typography>
      <Box
        component="form"
        className="no-print"
        noValidate
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
        onSubmit={(event) => {
          event.preventDefault();
          if (userId) mutation.mutate(userId, { onSuccess: () => setUserId('') });
        }}
      >
        <TextInput
          fullWidth={false}
          select
          size="small"
          label={t('manager.assignees.excludeWho')}
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          sx={{ flex: '1 1 220px', maxWidth: 360 }}
        >
          {candidates.map((handler) => (
            <option key={handler.id} value={handler.id}>
              {handler.name} ({roleLabel(t, handler.role)})
            </option>
          ))}
        </TextInput>
        <Button type="submit" color="warning" variant="outlined" disabled={!userId || mutation.isPending}>
          {t('manager.assignees.exclude')}
        </Button>
      </Box>
      {mutation.error && <Alert severity="error">{mutation.error.message}</Alert>}
    </Box>
  );
}
