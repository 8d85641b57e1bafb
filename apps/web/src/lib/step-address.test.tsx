import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { reachableStep, searchWithStep, stepFromSearch, stepHref, useStepAddress } from './step-address';

afterEach(cleanup);

describe('step addresses', () => {
  it('reads ?step=N counted from 1, and nothing else', () => {
    expect(stepFromSearch('?step=1')).toBe(0);
    expect(stepFromSearch('?a=b&step=4')).toBe(3);
    for (const bad of ['', '?step=', '?step=0', '?step=-1', '?step=1.5', '?step=abc', '?step=01'])
      expect(stepFromSearch(bad)).toBeNull();
  });

  it('writes the step and drops an invitation token', () => {
    expect(searchWithStep('?token=secret&x=1', 2)).toBe('?x=1&step=3');
    expect(searchWithStep('?step=9', 0)).toBe('?step=1');
    expect(stepHref('/report/t/a', 1)).toBe('/report/t/a?step=2');
  });

  it('never lands past the first incomplete step or the review', () => {
    expect(reachableStep(4, 5, null)).toBe(4);
    expect(reachableStep(9, 5, null)).toBe(5);
    expect(reachableStep(4, 5, 1)).toBe(1);
    expect(reachableStep(1, 5, 3)).toBe(1);
  });
});

/** A wizard of `last` steps whose answers are complete up to `firstInvalid`. */
function Wizard({
  initial,
  last,
  firstInvalid,
}: {
  initial: number;
  last: number;
  firstInvalid: number | null;
}) {
  const [step, setStep] = useState(initial);
  useStepAddress({ step, setStep, last, firstInvalid });
  const location = useLocation();
  return (
    <>
      <p data-testid="step">{step}</p>
      <p data-testid="address">{location.search}</p>
      <button type="button" onClick={() => setStep(step + 1)}>
        next
      </button>
    </>
  );
}

function mount(entry: string, props: { initial: number; last: number; firstInvalid: number | null }) {
  const router = createMemoryRouter([{ path: '/w', element: <Wizard {...props} /> }], {
    initialEntries: [entry],
  });
  render(<RouterProvider router={router} />);
  return router;
}

const shown = () => ({
  step: screen.getByTestId('step').textContent,
  address: screen.getByTestId('address').textContent,
});

describe('useStepAddress', () => {
  it('puts the saved step into a bare address without a new history entry', async () => {
    const router = mount('/w', { initial: 2, last: 4, firstInvalid: null });
    await screen.findByText('?step=3');
    expect(shown()).toEqual({ step: '2', address: '?step=3' });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('follows the address on load, and Back and Forward move between steps', async () => {
    const router = mount('/w?step=2', { initial: 0, last: 4, firstInvalid: null });
    await screen.findByText('?step=2');
    expect(shown()).toEqual({ step: '1', address: '?step=2' });

    fireEvent.click(screen.getByRole('button', { name: 'next' }));
    await screen.findByText('?step=3');
    expect(shown().step).toBe('2');
    expect(router.state.historyAction).toBe('PUSH');

    await act(() => router.navigate(-1));
    expect(shown()).toEqual({ step: '1', address: '?step=2' });
    await act(() => router.navigate(1));
    expect(shown()).toEqual({ step: '2', address: '?step=3' });
  });

  it('sends an address past an incomplete step back to that step', async () => {
    mount('/w?step=5', { initial: 0, last: 4, firstInvalid: 1 });
    await screen.findByText('?step=2');
    expect(shown()).toEqual({ step: '1', address: '?step=2' });
  });
});
