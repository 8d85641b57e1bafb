import type { SiteInfo } from '@ansim/shared/site';
import { useEffect, useState } from 'react';
import { env } from '../config/env';

/**
 * Who operates the service (GET /api/v1/site/), for the landing page and the policies. A plain fetch, once
 * per visit: these pages load neither the request helper nor the query cache (docs/decisions/0001).
 */
let pending: Promise<SiteInfo | null> | null = null;

export function loadSiteInfo(): Promise<SiteInfo | null> {
  pending ??= fetch(`${env.apiBase}/api/v1/site/`, { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<SiteInfo>) : null))
    .catch(() => null)
    .then((info) => {
      // A failed answer is asked again on the next page that needs it.
      if (!info) pending = null;
      return info;
    });
  return pending;
}

export function useSiteInfo(): SiteInfo | null {
  const [info, setInfo] = useState<SiteInfo | null>(null);
  useEffect(() => {
    let active = true;
    void loadSiteInfo().then((loaded) => {
      if (active) setInfo(loaded);
    });
    return () => {
      active = false;
    };
  }, []);
  return info;
}
