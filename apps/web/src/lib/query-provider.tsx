import { createQueryClient } from './query-client';

/**
 * One cache for the whole app. The landing page makes no API call, so TanStack Query is not part of its initial
 * JavaScript (budget ≤ 150 KB gzip): pages get the provider from app/page-providers.tsx and the header observes
 * this same client lazily (components/header/use-header-user.ts).
 */
export const queryClient = createQueryClient();
