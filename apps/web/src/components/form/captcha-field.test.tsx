import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { CaptchaField } from './captcha-field';

const widgetLoaded = vi.fn();
vi.mock('./captcha-widget', () => {
  widgetLoaded();
  return {
    default: ({ takeFocus }: { takeFocus: boolean }) => (
      <div data-testid="captcha" data-take-focus={String(takeFocus)} />
    ),
  };
});

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  widgetLoaded.mockClear();
});

function renderInForm() {
  render(
    <form>
      <label>
        이메일
        <input name="email" />
      </label>
      <CaptchaField onChange={() => undefined} />
    </form>,
  );
}

// R-PERF-2: ALTCHA is 30 KB gzip of what a first visit to /login, /receipt or /c/{code} would transfer.
describe('the captcha loads only when the form is used', () => {
  it('shows a stand-in and loads nothing until the form is touched, then loads ALTCHA', async () => {
    renderInForm();
    expect(screen.getByRole('checkbox', { name: '저는 로봇이 아닙니다' })).toBeTruthy();
    expect(screen.queryByTestId('captcha')).toBeNull();
    expect(widgetLoaded).not.toHaveBeenCalled();

    fireEvent.focusIn(screen.getByRole('textbox', { name: '이메일' }));
    const widget = await screen.findByTestId('captcha');
    expect(widgetLoaded).toHaveBeenCalledTimes(1);
    // Someone typing in another field keeps their focus there.
    expect(widget.dataset.takeFocus).toBe('false');
  });

  it('hands the focus to ALTCHA for someone who reaches the stand-in box itself', async () => {
    renderInForm();
    fireEvent.pointerDown(screen.getByRole('checkbox', { name: '저는 로봇이 아닙니다' }));
    expect((await screen.findByTestId('captcha')).dataset.takeFocus).toBe('true');
  });
});
