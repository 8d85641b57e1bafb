/** sessionStorage flag: set just before the one automatic reload, cleared once the router is ready. */
export const RELOAD_FLAG = 'ansim.lazyImportReloaded';

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
  log: (message: string, error: unknown) => void;
}

const browserDeps = (): ReloadDeps => ({
  storage: sessionStorage,
  reload: () => window.location.reload(),
  log: (message, error) => console.error(message, error),
});

/**
 * Wraps a dynamic import. A failed page chunk usually means a new deployment replaced the hashed file names,
 * and a reload fetches the new index. Reloading only once (R-WEB-3) avoids a reload loop when the chunk is
 * really gone or the network is down; the second failure is logged and surfaces in the route's error view.
 */
export function withReloadOnce<T>(
  load: () => Promise<T>,
  deps: () => ReloadDeps = browserDeps,
): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      const { storage, reload, log } = deps();
      if (storage.getItem(RELOAD_FLAG) === null) {
        storage.setItem(RELOAD_FLAG, '1');
        reload();
        // The page is going away; never settling keeps an error view from flashing before it does.
        return new Promise<T>(() => undefined);
      }
      log('Page module failed to load again after a reload', error);
      throw error;
    }
  };
}

interface RouterLike {
  state: { initialized: boolean };
  subscribe: (listener: (state: { initialized: boolean }) => void) => () => void;
}

/** Clears the flag when the router has finished its first navigation, i.e. the app is usable again. */
export function clearReloadFlagWhenReady(
  router: RouterLike,
  storage: Pick<Storage, 'removeItem'> = sessionStorage,
): void {
  if (router.state.initialized) {
    storage.removeItem(RELOAD_FLAG);
    return;
  }
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    storage.removeItem(RELOAD_FLAG);
    unsubscribe();
  });
}
