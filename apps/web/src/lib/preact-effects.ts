import { options } from 'preact';

/**
 * The build renders with Preact (docs/decisions/0015). Preact runs effects after the next animation frame,
 * found with requestAnimationFrame and a 35 ms setTimeout; React's scheduler posts them as a task on a
 * MessageChannel. Held timers then stop every effect under Preact and none under React: a tab in the
 * background (no frames, timeouts throttled to a second and more) and a page under a test's fake clock.
 * Posting the flush as a task, like React, keeps effects running whatever the timers do.
 */
export function runEffectsAsTasks(): void {
  const channel = new MessageChannel();
  const pending: Array<() => void> = [];
  channel.port1.onmessage = () => {
    for (const callback of pending.splice(0)) callback();
  };
  options.requestAnimationFrame = (callback) => {
    pending.push(callback);
    if (pending.length === 1) channel.port2.postMessage(null);
  };
}
