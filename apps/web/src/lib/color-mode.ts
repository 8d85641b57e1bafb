import { create } from 'zustand';

export type ColorMode = 'light' | 'dark';
export const COLOR_MODE_KEY = 'ansim.colorMode';

function storedMode(): ColorMode {
  try {
    return localStorage.getItem(COLOR_MODE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

/**
 * The plain-CSS shell (styles/shell.css) switches its theme tokens on this attribute; set at once rather than in
 * an effect so the first paint already has the stored mode.
 */
export function applyColorMode(mode: ColorMode): void {
  if (typeof document === 'undefined') return;
  document.documentElement.dataset.colorMode = mode;
  document.documentElement.style.colorScheme = mode;
}

interface ColorModeState {
  mode: ColorMode;
  setMode: (mode: ColorMode) => void;
}

/** docs/requirements.md R-WEB-11: light by default; the user's choice persists across visits. */
export const useColorMode = create<ColorModeState>((set) => ({
  mode: storedMode(),
  setMode: (mode) => {
    try {
      localStorage.setItem(COLOR_MODE_KEY, mode);
    } catch {
      // Choice applies to this visit only.
    }
    applyColorMode(mode);
    set({ mode });
  },
}));

applyColorMode(useColorMode.getState().mode);
