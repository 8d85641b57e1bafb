import { describe, expect, it, vi } from 'vitest';
import { clearReloadFlagWhenReady, RELOAD_FLAG, withReloadOnce } from './lazy-reload';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
    data,
  };
}

const failingImport = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

describe('withReloadOnce', () => {
  it('passes a successful import through without touching the flag', async () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const load = withReloadOnce(
      async () => ({ ok: true }),
      () => ({ storage, reload, log: vi.fn() }),
    );
    await expect(load()).resolves.toEqual({ ok: true });
    expect(reload).not.toHaveBeenCalled();
    expect(storage.data.size).toBe(0);
  });

  it('reloads once on the first failure and sets the flag', async () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const log = vi.fn();
    const load = withReloadOnce(failingImport, () => ({ storage, reload, log }));
    const settled = vi.fn();
    void load().then(settled, settled);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    // A load that settled after reloading would do so within microtasks; one macrotask later it has not.
    await new Promise((resolve) => setImmediate(resolve));
    expect(storage.getItem(RELOAD_FLAG)).toBe('1');
    expect(settled).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });

  it('only logs and rethrows a second failure (flag already set)', async () => {
    const storage = memoryStorage();
    storage.setItem(RELOAD_FLAG, '1');
    const reload = vi.fn();
    const log = vi.fn();
    const load = withReloadOnce(failingImport, () => ({ storage, reload, log }));
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(reload).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('clears the flag once the router is ready, so a later failure may reload again', async () => {
    const storage = memoryStorage();
    storage.setItem(RELOAD_FLAG, '1');
    let listener: ((state: { initialized: boolean }) => void) | undefined;
    const unsubscribe = vi.fn();
    const router = {
      state: { initialized: false },
      subscribe: (fn: (state: { initialized: boolean }) => void) => {
        listener = fn;
        return unsubscribe;
      },
    };
    clearReloadFlagWhenReady(router, storage);
    expect(storage.getItem(RELOAD_FLAG)).toBe('1');
    listener!({ initialized: true });
    expect(storage.getItem(RELOAD_FLAG)).toBeNull();
    expect(unsubscribe).toHaveBeenCalled();

    const reload = vi.fn();
    void withReloadOnce(failingImport, () => ({ storage, reload, log: vi.fn() }))();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('clears at once when the router is already initialised', () => {
    const storage = memoryStorage();
    storage.setItem(RELOAD_FLAG, '1');
    clearReloadFlagWhenReady({ state: { initialized: true }, subscribe: () => () => {} }, storage);
    expect(storage.getItem(RELOAD_FLAG)).toBeNull();
  });
});
