/**
 * Build-time configuration (Vite inlines `import.meta.env.VITE_*`). Parsed once here so a malformed value
 * fails at start-up with one clear line instead of surfacing as odd requests later. zod is not used on
 * purpose: this module is on the landing page's critical path and plain checks cost nothing.
 */
export interface Env {
  /** Origin (and optional path prefix) of the API; empty means same origin (docs/requirements.md R-WEB-6). */
  apiBase: string;
  /** PostHog project key; analytics stays completely off when empty. */
  posthogKey: string;
  posthogHost: string;
}

export function parseEnv(raw: Record<string, string | boolean | undefined>): Env {
  const str = (name: string): string => {
    const value = raw[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  const apiBase = str('VITE_API_BASE').replace(/\/+$/, '');
  if (apiBase && !/^https?:\/\/[^/]+/.test(apiBase)) {
    throw new Error(`VITE_API_BASE must be empty or an absolute http(s) URL, got "${apiBase}"`);
  }
  const posthogHost = str('VITE_POSTHOG_HOST') || 'https://eu.i.posthog.com';
  if (!/^https?:\/\//.test(posthogHost)) {
    throw new Error(`VITE_POSTHOG_HOST must be an absolute http(s) URL, got "${posthogHost}"`);
  }
  return { apiBase, posthogKey: str('VITE_POSTHOG_KEY'), posthogHost };
}

export const env: Env = parseEnv(import.meta.env);
