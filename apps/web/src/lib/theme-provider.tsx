import { type Theme, ThemeProvider } from '@mui/material/styles';
import type { ComponentType } from 'react';
import { type ColorMode, useColorMode } from './color-mode';
import { createAppTheme } from './theme';

const themes: Partial<Record<ColorMode, Theme>> = {};
const themeFor = (mode: ColorMode): Theme => {
  themes[mode] ??= createAppTheme(mode);
  return themes[mode];
};

/**
 * The MUI theme for the current colour mode. Mounted around each MUI page (and the drawer) rather than at the
 * root, so MUI and Emotion load only with the first screen that uses them — never for the landing page. The
 * root styles CssBaseline used to set come from styles/shell.css, which every screen has.
 */
export function AppThemeProvider({ children }: { children: React.ReactNode }) {
  const mode = useColorMode((state) => state.mode);
  return <ThemeProvider theme={themeFor(mode)}>{children}</ThemeProvider>;
}

/**
 * `Component` inside the theme: a page that reads and writes nothing through the query cache (/receipt's MUI
 * parts, the guide), or an MUI part loaded into a page that draws without MUI (lazy-themed.tsx).
 */
export function withAppTheme<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithAppTheme(props: P) {
    return (
      <AppThemeProvider>
        <Component {...props} />
      </AppThemeProvider>
    );
  }
  WithAppTheme.displayName = `WithAppTheme(${Component.displayName ?? Component.name})`;
  return WithAppTheme;
}
