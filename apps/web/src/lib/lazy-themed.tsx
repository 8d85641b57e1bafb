import { type ComponentType, lazy } from 'react';

export type ThemedLazy<P extends object> = React.LazyExoticComponent<ComponentType<P>> & {
  /** Starts loading now, e.g. when the person starts on a step whose next one needs it. */
  preload: () => Promise<unknown>;
};

/**
 * An MUI part of a page that draws without MUI: loaded when first drawn, or when `preload` asks, together with
 * the MUI theme that is mounted around it. The page itself starts without MUI and Emotion, which was most of its
 * start-up on a phone (docs/requirements.md R-PERF-3, decisions 0022 and 0025).
 */
export function lazyThemed<P extends object>(load: () => Promise<ComponentType<P>>): ThemedLazy<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () => {
    loading ??= Promise.all([load(), import('./theme-provider')]).then(([Component, { withAppTheme }]) => ({
      default: withAppTheme(Component),
    }));
    return loading;
  };
  return Object.assign(lazy(start), { preload: start });
}
