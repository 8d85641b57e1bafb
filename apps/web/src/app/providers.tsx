import { GlobalSnackbar } from '../components/snackbar/global-snackbar';

/**
 * What sits around every screen. No MUI here: the MUI theme is provided per page (app/page-providers.tsx), so the
 * landing page loads without MUI or Emotion; the colour mode reaches the plain-CSS shell through
 * lib/color-mode.ts.
 */
export function AppProviders({ children }: { children: React.ReactNode }) {
  return (
    <>
      {children}
      <GlobalSnackbar />
    </>
  );
}
