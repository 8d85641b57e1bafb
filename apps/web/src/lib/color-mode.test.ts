import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COLOR_MODE_KEY } from './color-mode';

/** The module as a first visit loads it: the store reads localStorage and marks the document at import. */
async function freshColorMode() {
  vi.resetModules();
  return (await import('./color-mode')).useColorMode;
}

describe('colour mode', () => {
  beforeEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.colorMode;
    document.documentElement.style.colorScheme = '';
  });

  it('starts light on a first visit and marks the document for the plain-CSS shell', async () => {
    const useColorMode = await freshColorMode();
    expect(useColorMode.getState().mode).toBe('light');
    expect(document.documentElement.dataset.colorMode).toBe('light');
    expect(document.documentElement.style.colorScheme).toBe('light');
  });

  it('starts in the stored choice, and light again when the stored value is not a mode', async () => {
    localStorage.setItem(COLOR_MODE_KEY, 'dark');
    expect((await freshColorMode()).getState().mode).toBe('dark');
    expect(document.documentElement.dataset.colorMode).toBe('dark');

    localStorage.setItem(COLOR_MODE_KEY, 'purple');
    expect((await freshColorMode()).getState().mode).toBe('light');
    expect(document.documentElement.dataset.colorMode).toBe('light');
  });

  it('switching to dark persists the choice and switches the shell tokens', async () => {
    const useColorMode = await freshColorMode();
    useColorMode.getState().setMode('dark');
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
    expect(useColorMode.getState().mode).toBe('dark');
    expect(document.documentElement.dataset.colorMode).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });
});
