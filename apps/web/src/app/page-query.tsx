import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { queryClient } from '../lib/query-provider';

/**
 * The shared query cache alone, for a page that draws without MUI yet calls the API (/login, /report): it goes
 * without the theme, and with it MUI and Emotion (decision 0022).
 */
export function withPageQuery<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithPageQuery(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Component {...props} />
      </QueryClientProvider>
    );
  }
  WithPageQuery.displayName = `WithPageQuery(${Component.displayName ?? Component.name})`;
  return WithPageQuery;
}
