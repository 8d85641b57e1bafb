import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchInvitation, type InvitationKind } from './api/invitation-api';
import { captureInvitationToken } from './invitation-token';

/** The token of this tab's link, taken out of the address bar on the first render. */
export function useInvitationToken(kind: InvitationKind): string | null {
  const [token] = useState(() => captureInvitationToken(kind));
  return token;
}

/**
 * The cache key names the kind, not the token: the token is a credential and stays out of anything that may
 * be inspected or logged (the query cache, devtools).
 */
export const invitationQueryKey = (kind: InvitationKind) => ['api', 'v1', 'invitation', kind] as const;

export function useInvitation(kind: InvitationKind, token: string | null) {
  return useQuery({
    queryKey: invitationQueryKey(kind),
    queryFn: ({ signal }) => fetchInvitation(token!, signal),
    enabled: Boolean(token),
    staleTime: 30_000,
  });
}
