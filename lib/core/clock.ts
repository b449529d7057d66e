/**
 * The service's notion of "now" in epoch milliseconds. Session expiry reads it through here so
 * tests can move time forward (`setClock`) instead of sleeping.
 */
let current: () => number = Date.now;

export const now = (): number => current();

/** Tests only: replace the clock (e.g. `setClock(() => t)`); `resetClock()` restores Date.now. */
export function setClock(clock: () => number): void {
  current = clock;
}

export function resetClock(): void {
  current = Date.now;
}
