import { beforeEach, describe, expect, it } from 'vitest';
import { COLOR_MODE_KEY, useColorMode } from './color-mode';

describe('colour mode', () => {
  beforeEach(() => useColorMode.getState().setMode('light'));

  it('starts light and marks the document for the plain-CSS shell', () => {
    expect(useColorMode.getState().mode).toBe('light');
    expect(document.documentElement.dataset.colorMode).toBe('light');
  });

  it('switching to dark persists the choice and switches the shell tokens', () => {
    useColorMode.getState().setMode('dark');
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
    expect(document.documentElement.dataset.colorMode).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });
});
