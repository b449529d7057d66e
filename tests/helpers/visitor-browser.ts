import { expect } from 'vitest';
import { POST as createSessionRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { presenters } from './auth-matrix';
import { call, type Tenant } from './harness';

/** User-Agents of a desktop browser, a crawler and a phone. */
export const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * A visitor's browser on the tenant's site, through the real visitor routes with the site's key:
 * its own fingerprint and User-Agent. Each call first sets the test clock to `at` (`setClock`):
 * `land` starts (or resumes) the session, `event` tracks an event in it.
 */
export function visitorBrowser(t: Tenant, setClock: (at: number) => void, ua = UA) {
  const fingerprint = `fp-${Math.random().toString(36).slice(2)}`;
  const headers = { ...presenters.xSaApiKey(t.key), 'user-agent': ua };
  let sessionId = '';
  const post = (route: typeof trackRoute, path: string, at: number, body: Record<string, unknown>) => {
    setClock(at);
    return call(route, { method: 'POST', path, headers, body: { site_id: t.siteId, ...body } });
  };
  return {
    headers,
    sessionId: () => sessionId,
    async land(at: number, body: Record<string, unknown>) {
      const res = await post(createSessionRoute, '/api/visitors/session', at, { fingerprint, ...body });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      sessionId = res.body.data.session_id;
      return res.body.data;
    },
    async event(at: number, body: Record<string, unknown>) {
      const res = await post(trackRoute, '/api/visitors/track', at, { session_id: sessionId, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    },
  };
}
