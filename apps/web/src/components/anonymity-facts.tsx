import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../lib/site-info';
import '../locales/anonymous-copy';

const CAN = ['content', 'thread'] as const;
const CANNOT = ['identity', 'account', 'metadata', 'fileName', 'mail'] as const;

/** Who runs this installation, from the server's configuration; nothing is shown until it is known. */
export function OperatorLine() {
  const { t } = useTranslation();
  const site = useSiteInfo();
  if (!site?.operator_name) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="site-operator">
      {t('anonymous.facts.operator', { name: site.operator_name })}
      {site.operator_contact &&
        ` · ${t('anonymous.facts.operatorContact', { contact: site.operator_contact })}`}
    </Typography>
  );
}

/**
 * What the company can and cannot learn from an anonymous report, in plain words (issue 10), and who
 * operates the service. Every "cannot" line is a defence of docs/threat-model.md.
 */
export function AnonymityFacts({ showNamedNote = false }: { showNamedNote?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 } }}
      data-testid="anonymity-facts"
    >
      <Typography id={titleId} variant="h2" sx={{ fontSize: '1.15rem', mb: 2 }}>
        {t('anonymous.facts.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <FactList
          title={t('anonymous.facts.canTitle')}
          items={CAN.map((key) => t(`anonymous.facts.can.${key}`))}
        />
        <FactList
          title={t('anonymous.facts.cannotTitle')}
          items={CANNOT.map((key) => t(`anonymous.facts.cannot.${key}`))}
        />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('anonymous.facts.caution')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('anonymous.facts.network')}
      </Typography>
      {showNamedNote && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('anonymous.facts.namedNote')}
        </Typography>
      )}
      <Box sx={{ mt: 2 }}>
        <OperatorLine />
      </Box>
    </Paper>
  );
}

function FactList({ title, items }: { title: string; items: string[] }) {
  const id = useId();
  return (
    <Box>
      <Typography id={id} sx={{ fontWeight: 700, mb: 1 }}>
        {title}
      </Typography>
      <Box component="ul" aria-labelledby={id} sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
        {items.map((item) => (
          <Typography component="li" variant="body2" key={item}>
            {item}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
