import { existsSync } from 'node:fs';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';
import { playwrightRobots } from './playwright';
import type { RobotProvider } from './port';

export type { BrowserSession, RobotProvider, SavedBrowserState } from './port';

declare module '@/lib/core/providers' {
  interface ProviderMap {
    robots: RobotProvider;
  }
}

const notConfigured = (why: string) => new ApiError('PROVIDER_NOT_CONFIGURED', `No robot browser is available: ${why}`);

/**
 * The configured robot provider: a browser over CDP when ROBOTS_CDP_URL is set (or
 * ROBOTS_PROVIDER=cdp), else the machine's Chromium at ROBOTS_CHROMIUM_PATH. No usable browser →
 * 503 PROVIDER_NOT_CONFIGURED; a browser is never downloaded.
 */
defineProvider(
  'robots',
  () => {
    const c = config();
    const kind = c.ROBOTS_PROVIDER ?? (c.ROBOTS_CDP_URL ? 'cdp' : 'local');
    const limits = { total: c.ROBOTS_MAX_TOTAL, actionTimeoutMs: c.ROBOTS_ACTION_TIMEOUT_MS };
    if (kind === 'none') throw notConfigured('robots are switched off (ROBOTS_PROVIDER=none)');
    if (kind === 'cdp') {
      if (!c.ROBOTS_CDP_URL) throw notConfigured('ROBOTS_PROVIDER=cdp needs ROBOTS_CDP_URL');
      return playwrightRobots({ kind: 'cdp', endpoint: c.ROBOTS_CDP_URL, ...limits });
    }
    if (!existsSync(c.ROBOTS_CHROMIUM_PATH)) throw notConfigured(`no Chromium at ROBOTS_CHROMIUM_PATH (${c.ROBOTS_CHROMIUM_PATH})`);
    return playwrightRobots({ kind: 'local', executablePath: c.ROBOTS_CHROMIUM_PATH, ...limits });
  },
  (robots) => robots.shutdown(),
);

/** The configured provider; 503 PROVIDER_NOT_CONFIGURED when there is none. */
export const robotProvider = (): RobotProvider => provider('robots');
