import type { RouteGuardMeta } from '../lib/guards';

/**
 * `minimal`: brand, language and colour only, for the invitation (statement) pages. The accused person and
 * witnesses are not the platform's members; the reporter's menu (신고하기, 내 신고) is not for them.
 */
export type LayoutName = 'default' | 'minimal';

/** A route's `handle`: the route meta of docs/requirements.md R-WEB-1 (layout choice and guard requirements). */
export interface RouteMeta extends RouteGuardMeta {
  /** false renders the page bare; a name picks a layout; unset means the default layout. */
  layout?: LayoutName | false;
}

export function isRouteMeta(value: unknown): value is RouteMeta {
  return typeof value === 'object' && value !== null;
}
