import { readFileSync } from 'node:fs';
import { alpha, darken, lighten } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from '../lib/theme';

// Read from disk: the test runner does not process stylesheets.
const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');
const shellCss = read('./shell.css');
const landingCss = read('../features/landing/landing-page.css');
const controlsCss = read('./plain-controls.css');

/** The custom properties declared in the first block whose selector is exactly `selector`. */
function tokens(css: string, selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`No ${selector} block in shell.css`);
  const body = css.slice(start, css.indexOf('}', start));
  const entries = [...body.matchAll(/(--ansim-[a-z0-9-]+):\s*([^;]+);/g)].map(
    ([, name, value = '']) => [name, value.replace(/\s+/g, ' ').trim()] as const,
  );
  return Object.fromEntries(entries);
}

const norm = (value: string | number) => String(value).replace(/\s+/g, '').toLowerCase();

describe('shell.css follows the MUI theme (the landing page and header render without MUI)', () => {
  const root = tokens(shellCss, ':root');
  const dark = { ...root, ...tokens(shellCss, ':root[data-color-mode="dark"]') };

  for (const [mode, css] of [
    ['light', root],
    ['dark', dark],
  ] as const) {
    it(`${mode} tokens equal the theme's palette`, () => {
      const { palette, shape } = createAppTheme(mode);
      const expected: Record<string, string | number> = {
        '--ansim-primary': palette.primary.main,
        '--ansim-primary-contrast': palette.primary.contrastText,
        '--ansim-bg-default': palette.background.default,
        '--ansim-bg-paper': palette.background.paper,
        '--ansim-text-primary': palette.text.primary,
        '--ansim-text-secondary': palette.text.secondary,
        '--ansim-divider': palette.divider,
        '--ansim-action-hover': palette.action.hover,
        '--ansim-primary-hover': alpha(palette.primary.main, palette.action.hoverOpacity),
        '--ansim-error': palette.error.main,
        '--ansim-success': palette.success.main,
        '--ansim-radius': `${shape.borderRadius}px`,
      };
      for (const [name, value] of Object.entries(expected)) {
        expect(norm(css[name] ?? `(missing ${name})`), name).toBe(norm(value));
      }
    });
  }

  // The login page, the type chooser and the wizard's first step draw their fields, buttons and alerts without MUI
  // (decisions 0022 and 0025).
  for (const mode of ['light', 'dark'] as const) {
    it(`${mode} plain-controls.css tokens equal MUI's own colours for those components`, () => {
      const controls =
        mode === 'light'
          ? tokens(controlsCss, ':root')
          : { ...tokens(controlsCss, ':root'), ...tokens(controlsCss, ':root[data-color-mode="dark"]') };
      const { palette } = createAppTheme(mode);
      // MUI's standard Alert: text and background are the severity's light colour darkened and lightened.
      const text = mode === 'light' ? darken : lighten;
      const background = mode === 'light' ? lighten : darken;
      const expected: Record<string, string> = {
        '--ansim-outline': mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)',
        '--ansim-disabled': palette.action.disabled,
        '--ansim-disabled-bg': palette.action.disabledBackground,
        '--ansim-link-underline': alpha(palette.primary.main, 0.4),
        // The wizard's stepper and radios, and the native select's arrow (decision 0025).
        '--ansim-text-disabled': palette.text.disabled,
        '--ansim-action-active': palette.action.active,
        '--ansim-step-line': mode === 'light' ? palette.grey[400] : palette.grey[600],
      };
      for (const severity of ['error', 'warning', 'info', 'success'] as const) {
        expected[`--ansim-alert-${severity}`] = text(palette[severity].light, 0.6);
        expected[`--ansim-alert-${severity}-bg`] = background(palette[severity].light, 0.9);
        expected[`--ansim-alert-${severity}-icon`] = palette[severity].main;
      }
      for (const [name, value] of Object.entries(expected)) {
        expect(norm(controls[name] ?? `(missing ${name})`), name).toBe(norm(value));
      }
    });
  }

  it('uses the theme font stack', () => {
    expect(norm(root['--ansim-font'] ?? '')).toBe(
      norm(String(createAppTheme('light').typography.fontFamily)),
    );
  });

  it('R-WEB-11: primary #1867C0 light and #2196F3 dark', () => {
    expect(root['--ansim-primary']?.toUpperCase()).toBe('#1867C0');
    expect(dark['--ansim-primary']?.toUpperCase()).toBe('#2196F3');
  });

  it('the landing hero is 550 px tall', () => {
    expect(landingCss).toMatch(/\.landing-hero \{\s*height: 550px;/);
  });
});
