import { SITE_INFO_ELEMENT_ID } from '@ansim/shared/constants';
import type { SiteInfo } from '@ansim/shared/site';
import { useEffect, useState } from 'react';
import { env } from '../config/env';

/** What the page's HTML already says: a prerendered page names the operator, so the first render can too. */
function embeddedSiteInfo(): SiteInfo | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(SITE_INFO_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<SiteInfo>;
    return typeof parsed.operator_name === 'string' && typeof parsed.operator_contact === 'string'
      ? { operator_name: parsed.operator_name, operator_contact: parsed.operator_contact }
      : null;
  } catch {
    return null;
  }
}

let known: SiteInfo | null = embeddedSiteInfo();

/** The server's prerender knows the operator from its configuration, and renders with it. */
export function primeSiteInfo(info: SiteInfo): void {
  known = info;
}

/**
 * Who operates the service (GET /api/v1/site/), for the landing page and the policies. A plain fetch, once
 * per visit, unless the page's HTML carried it: these pages load neither the request helper nor the query cache
 * (docs/decisions/0001).
 */
let pending: Promise<SiteInfo | null> | null = null;

export function loadSiteInfo(): Promise<SiteInfo | null> {
  if (known) return Promise.resolve(known);
  pending ??= fetch(`${env.apiBase}/api/v1/site/`, { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<SiteInfo>) : null))
    .catch(() => null)
    .then((info) => {
      // A failed answer is asked again on the next page that needs it.
      if (!info) pending = null;
      else known = info;
      return info;
    });
  return pending;
}

export function useSiteInfo(): SiteInfo | null {
  const [info, setInfo] = useState<SiteInfo | null>(known);
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
