import { SNACKBAR_SWIPE_PX } from '@ansim/shared/constants';
import { create } from 'zustand';

export type SnackbarSeverity = 'info' | 'success' | 'error';

interface SnackbarState {
  message: string | null;
  severity: SnackbarSeverity;
  /** Changes on every show, so repeating the same message restarts the 5 s timer. */
  serial: number;
  show: (message: string, severity?: SnackbarSeverity) => void;
  hide: () => void;
}

export const useSnackbar = create<SnackbarState>((set) => ({
  message: null,
  severity: 'info',
  serial: 0,
  show: (message, severity = 'info') => set((state) => ({ message, severity, serial: state.serial + 1 })),
  hide: () => set({ message: null }),
}));

export const showSnackbar = (message: string, severity?: SnackbarSeverity): void =>
  useSnackbar.getState().show(message, severity);

/** docs/requirements.md R-WEB-5: a swipe of more than 50 px dismisses; exactly 50 does not. */
export const isDismissSwipe = (startX: number, endX: number): boolean =>
  Math.abs(endX - startX) > SNACKBAR_SWIPE_PX;
