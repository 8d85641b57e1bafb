import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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

/** Dates and times in the reader's language, on the company's (Korean) clock, as the invitation mail does. */
export function useInvitationDates() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'en' ? 'en-GB' : 'ko-KR';
  return {
    date: (iso: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'Asia/Seoul' }).format(new Date(iso)),
    dateTime: (iso: string) =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'Asia/Seoul',
      }).format(new Date(iso)),
  };
}
