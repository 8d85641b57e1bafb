import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { GlobalSnackbar } from './global-snackbar';
import { isDismissSwipe, showSnackbar, useSnackbar } from './snackbar-store';

beforeAll(async () => {
  await initI18n();
});

describe('GlobalSnackbar', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useSnackbar.setState({ message: null });
    render(<GlobalSnackbar />);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('announces the message in a polite live region and keeps line breaks', () => {
    act(() => showSnackbar('첫 줄\n둘째 줄'));
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    const text = screen.getByText(
      (_, element) => element?.textContent === '첫 줄\n둘째 줄' && element.tagName === 'P',
    );
    expect(getComputedStyle(text).whiteSpace).toBe('pre-line');
  });

  it('is still visible just before 5000 ms and gone at 5000 ms', () => {
    act(() => showSnackbar('저장되었습니다.'));
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByTestId('snackbar')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('restarts the 5 s timer when a new message arrives', () => {
    act(() => showSnackbar('하나'));
    act(() => vi.advanceTimersByTime(3000));
    act(() => showSnackbar('둘'));
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('snackbar').textContent).toContain('둘');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('a 49 px pointer swipe keeps it, a 51 px swipe dismisses it', () => {
    act(() => showSnackbar('밀어서 닫기'));
    const bar = () => screen.getByTestId('snackbar');
    fireEvent.pointerDown(bar(), { clientX: 100 });
    fireEvent.pointerMove(bar(), { clientX: 149 });
    fireEvent.pointerUp(bar(), { clientX: 149 });
    expect(screen.queryByTestId('snackbar')).not.toBeNull();
    fireEvent.pointerDown(bar(), { clientX: 100 });
    fireEvent.pointerUp(bar(), { clientX: 49 });
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('a touch swipe of 51 px dismisses it', () => {
    act(() => showSnackbar('터치'));
    const bar = screen.getByTestId('snackbar');
    fireEvent.touchStart(bar, { touches: [{ clientX: 10 }] });
    fireEvent.touchEnd(bar, { changedTouches: [{ clientX: 61 }] });
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('closes with its button', () => {
    act(() => showSnackbar('닫기'));
    fireEvent.click(screen.getByRole('button', { name: '알림 닫기' }));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });
});

describe('isDismissSwipe', () => {
  it('needs more than 50 px in either direction', () => {
    expect(isDismissSwipe(0, 50)).toBe(false);
    expect(isDismissSwipe(0, 51)).toBe(true);
    expect(isDismissSwipe(100, 49)).toBe(true);
    expect(isDismissSwipe(100, 51)).toBe(false);
  });
});
