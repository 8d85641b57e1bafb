import type { PostHog, PostHogConfig } from 'posthog-js';
import { env } from '../config/env';

/**
 * The settings of R-WEB-13. Reporters describe harassment in free text, so nothing a person types or reads may leave
 * the browser (R-WEB-13): all text and element attributes are masked, autocapture never records input
 * values, and session recording is off. posthog-js's request timeout already defaults to R-WEB-13's 60000 ms
 * and has no public option, so it is not repeated here.
 */
export function analyticsConfig(host: string): Partial<PostHogConfig> {
  return {
    api_host: host,
    feature_flag_request_timeout_ms: 3000,
    surveys_request_timeout_ms: 10_000,
    session_idle_timeout_seconds: 1800,
    cookie_expiration: 365,
    person_profiles: 'identified_only',
    capture_pageview: 'history_change',
    autocapture: {
      // An empty allowlist disables value capture of every field.
      capture_value_css_selector_allowlist: [],
      capture_copied_text: false,
    },
    mask_all_text: true,
    mask_all_element_attributes: true,
    mask_personal_data_properties: true,
    disable_session_recording: true,
    session_recording: { maskAllInputs: true, maskTextSelector: '*' },
  };
}

let client: PostHog | null = null;

/** Installs the analytics plugin when a key was set at build time; without one, nothing is even downloaded. */
export async function installAnalytics(key: string = env.posthogKey): Promise<PostHog | null> {
  if (!key) return null;
  const { default: posthog } = await import('posthog-js');
  posthog.init(key, analyticsConfig(env.posthogHost));
  client = posthog;
  return posthog;
}

export const analytics = (): PostHog | null => client;
