import type { ComponentType } from 'react';
import { AppThemeProvider } from '../lib/theme-provider';

/**
 * The MUI theme alone, for a page that reads and writes nothing through the query cache (/receipt, /c/{code}): it goes
 * without react-query's 12 KB, on a page a reporter opens from a phone with no account (issue 16: 150 KB).
 */
export function withPageTheme<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithPageTheme(props: P) {
    return (
      <AppThemeProvider>
        <Component {...props} />
      </AppThemeProvider>
    );
  }
  WithPageTheme.displayName = `WithPageTheme(${Component.displayName ?? Component.name})`;
  return WithPageTheme;
}
