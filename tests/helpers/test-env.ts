import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A new directory for a test, in the run's directory (tests/helpers/global-setup.ts): removed when the run ends. */
export const testDir = (prefix: string) => mkdtempSync(path.join(process.env.TEST_DATA_ROOT ?? os.tmpdir(), prefix));

/** Test processes never touch the developer's .data/ directory or secrets. */
export function applyTestEnv(): void {
  process.env.DATA_DIR ??= testDir('sgp-test-');
  process.env.AUTH_SECRET ??= 'test-secret-test-secret-test-secret-0123456789';
  process.env.LOG_LEVEL ??= 'silent';
  // Suites of other areas make bursts of API-key calls on one site; the rate-limit suites
  // switch the limiter on themselves (tests/helpers/rate-limits.ts).
  process.env.RATE_LIMIT_BACKEND ??= 'none';
  // Suites that call every route start real robot browsers on one site; the robot suite sets its own caps.
  process.env.ROBOTS_MAX_PER_SITE ??= '20';
}
