import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AppThemeProvider } from '../../lib/theme-provider';
import { Icon } from '../icons';
import type { NavItem } from './nav-items';

/**
 * Loaded on first opening: the modal machinery is not needed to show the landing page. The header around it is
 * plain HTML, so the drawer brings its own MUI theme.
 */
export default function NavDrawer({
  open,
  onClose,
  items,
  isCurrent,
}: {
  open: boolean;
  onClose: () => void;
  items: NavItem[];
  isCurrent: (to: string) => boolean;
}) {
  const { t } = useTranslation();
  return (
    <AppThemeProvider>
      <Drawer
        id="app-drawer"
        anchor="right"
        open={open}
        onClose={onClose}
        slotProps={{ paper: { 'aria-label': t('nav.menu') } }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
          <IconButton onClick={onClose} aria-label={t('nav.closeMenu')} data-testid="drawer-close">
            <Icon name="close" />
          </IconButton>
        </Box>
        <Box component="nav" aria-label={t('nav.main')} sx={{ width: 260 }}>
          <List>
            {items.map((item) => (
              <ListItemButton
                key={item.to}
                component={RouterLink}
                to={item.to}
                selected={isCurrent(item.to)}
                aria-current={isCurrent(item.to) ? 'page' : undefined}
                onClick={onClose}
              >
                <ListItemText primary={item.label} />
              </ListItemButton>
            ))}
          </List>
        </Box>
      </Drawer>
    </AppThemeProvider>
  );
}
