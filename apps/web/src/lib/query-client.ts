import { QueryClient } from '@tanstack/react-query';

/** R-WEB-9: nothing is retried (a retried mutation could file twice), unused cache kept 5 minutes. */
export const GC_TIME_MS = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, gcTime: GC_TIME_MS, refetchOnWindowFocus: false },
      mutations: { retry: false, gcTime: GC_TIME_MS },
    },
  });
}
