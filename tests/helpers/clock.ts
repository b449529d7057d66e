import { afterEach } from 'vitest';
import { overrideProviders } from '@/lib/core/providers';

/**
 * The service's clock under a test file's control: `useClock(t)` sets "now" to `t` (epoch ms)
 * until the next call; after each test the real clock is back.
 */
export function testClock(): (t: number) => void {
  let restore = () => {};
  let at = 0;
  afterEach(() => {
    restore();
    restore = () => {};
  });
  return (t: number) => {
    at = t;
    restore();
    restore = overrideProviders({ clock: { now: () => at } });
  };
}
