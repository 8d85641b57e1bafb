import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from '../lib/query-provider';
import { AppThemeProvider } from '../lib/theme-provider';

/**
 * What every page but the landing page needs around it: the MUI theme and the shared query cache. Loaded beside
 * the page's own chunk, so the landing page's first load carries neither (R-PERF-1: ≤ 150 KB of JS gzip).
 */
export function withPageProviders<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithPageProviders(props: P) {
    return (
      <AppThemeProvider>
        <QueryClientProvider client={queryClient}>
          <Component {...props} />
        </QueryClientProvider>
      </AppThemeProvider>
    );
  }
  WithPageProviders.displayName = `WithPageProviders(${Component.displayName ?? Component.name})`;
  return WithPageProviders;
}
