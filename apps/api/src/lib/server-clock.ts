/**
 * The server's "now" for session expiry. It is the wall clock, shifted only by the e2e suite's test clock
 * route (routes/test-clock.ts), which exists only when NODE_ENV=test and TEST_CLOCK_ROUTE are both set: the
 * browser test of a two-hour working session moves this clock and the page's together instead of waiting
 * two hours. Nothing else can change the offset, so outside that server it is always 0.
 */
let offsetMs = 0;

export function serverNow(): number {
  return Date.now() + offsetMs;
}

export function setServerClockOffset(seconds: number): void {
  offsetMs = seconds * 1000;
}

export function serverClockOffsetSeconds(): number {
  return offsetMs / 1000;
}
