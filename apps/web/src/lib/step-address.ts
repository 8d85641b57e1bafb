import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Wizard steps in the address (`?step=N`, counted from 1 as people count; the review is the step after the
 * last). The draft store keeps its own 0-based index (R-WIZ-3) and stays the place that the buttons change;
 * this module keeps the two in step so Back, Forward and a refresh move between steps, not off the wizard.
 */
export const STEP_PARAM = 'step';

/** The 0-based step named by the address, or null when it names none (absent, 0, not a number). */
export function stepFromSearch(search: string): number | null {
  const raw = new URLSearchParams(search).get(STEP_PARAM);
  if (!raw || !/^[1-9][0-9]{0,2}$/.test(raw)) return null;
  return Number(raw) - 1;
}

/**
 * The query string naming `index`. Other parameters stay, except an invitation `token`: the statement page
 * took it out of the address bar (history.replaceState) behind the router's back, and must not get it back.
 */
export function searchWithStep(search: string, index: number): string {
  const params = new URLSearchParams(search);
  params.delete('token');
  params.set(STEP_PARAM, String(index + 1));
  return `?${params.toString()}`;
}

/** The address of `path` at the 0-based step `index`. */
export const stepHref = (path: string, index: number): string => `${path}${searchWithStep('', index)}`;

/**
 * Where a requested step may land: never past the first step whose answers are missing (a bookmark or an
 * edited address cannot skip the checks Next makes), nor past the review (`last`).
 */
export function reachableStep(requested: number, last: number, firstInvalid: number | null): number {
  const ceiling = firstInvalid === null ? last : Math.min(firstInvalid, last);
  return Math.max(0, Math.min(requested, ceiling));
}

interface StepAddressOptions {
  /** The store's 0-based step. */
  step: number;
  setStep: (step: number) => void;
  /** The index of the review screen (the number of steps). */
  last: number;
  /** The first step with missing answers, or null when every step is complete. */
  firstInvalid: number | null;
}

/**
 * Keeps the store's step and the address in step. A change of address (first visit, refresh, Back, Forward)
 * moves the store, within `reachableStep`; a change of the store (Next, Previous, an edit link on the review,
 * a reset) adds a history entry.
 */
export function useStepAddress({ step, setStep, last, firstInvalid }: StepAddressOptions): void {
  const location = useLocation();
  const navigate = useNavigate();
  const fromAddress = stepFromSearch(location.search);
  // `undefined` before the first run, so a first visit counts as a change of address.
  const seenAddress = useRef<number | null | undefined>(undefined);
  const pushed = useRef<number | null>(null);

  useLayoutEffect(() => {
    if (fromAddress !== seenAddress.current) {
      seenAddress.current = fromAddress;
      pushed.current = null;
      const target = reachableStep(fromAddress ?? step, last, firstInvalid);
      if (target !== step) setStep(target);
      if (target !== fromAddress) {
        seenAddress.current = target;
        navigate({ search: searchWithStep(location.search, target), hash: location.hash }, { replace: true });
      }
      return;
    }
    if (step !== fromAddress && pushed.current !== step) {
      pushed.current = step;
      navigate({ search: searchWithStep(location.search, step), hash: location.hash });
    }
  }, [fromAddress, step, last, firstInvalid, setStep, navigate, location.search, location.hash]);
}
