import type { RouteGuardMeta } from './guards';

export type LayoutName = 'default';

/** A route's `handle`: the spec's route meta (layout choice and guard requirements). */
export interface RouteMeta extends RouteGuardMeta {
  /** false renders the page bare; a name picks a layout; unset means the default layout. */
  layout?: LayoutName | false;
}

export function isRouteMeta(value: unknown): value is RouteMeta {
  return typeof value === 'object' && value !== null;
}
