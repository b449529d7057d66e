import { defineProvider, provider } from './providers';

/**
 * The service's notion of "now", a provider slot like any outside service: session expiry, key
 * expiry and usage records read it here, so tests move time forward with
 * `overrideProviders({ clock: { now: () => t } })` instead of sleeping.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

declare module './providers' {
  interface ProviderMap {
    clock: Clock;
  }
}

// Read at each call, so a test's fake Date is seen too.
defineProvider('clock', () => ({ now: () => Date.now() }));

export const now = (): number => provider('clock').now();

export const currentDate = (): Date => new Date(now());
