import { createTheme, type Theme } from '@mui/material/styles';
import type { ColorMode } from './color-mode';

export const PRIMARY = { light: '#1867C0', dark: '#2196F3' } as const;

const FONT_STACK = [
  '"Pretendard Variable"',
  'Pretendard',
  '-apple-system',
  'BlinkMacSystemFont',
  'system-ui',
  '"Apple SD Gothic Neo"',
  '"Noto Sans KR"',
  '"Malgun Gothic"',
  'sans-serif',
].join(',');

export function createAppTheme(mode: ColorMode): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: PRIMARY[mode] },
      // WCAG AA for normal text: with the default threshold (3) MUI puts white on #2196F3 at 3.1:1.
      contrastThreshold: 4.5,
      ...(mode === 'light' ? { background: { default: '#F7F9FC' } } : {}),
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: FONT_STACK,
      h1: { fontSize: '2rem', fontWeight: 700, lineHeight: 1.3, wordBreak: 'keep-all' },
      h2: { fontSize: '1.5rem', fontWeight: 700, lineHeight: 1.35, wordBreak: 'keep-all' },
      h3: { fontSize: '1.2rem', fontWeight: 700, lineHeight: 1.4, wordBreak: 'keep-all' },
      body1: { wordBreak: 'keep-all' },
      body2: { wordBreak: 'keep-all' },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTextField: { defaultProps: { fullWidth: true } },
    },
  });
}
