import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import { POST as startSession } from '@/app/api/visitors/session/route';
import { POST as track } from '@/app/api/visitors/track/route';
import { operationsOf } from '@/lib/http/openapi';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createUser } from '@/tests/helpers/harness';
import { useRateLimits } from '@/tests/helpers/rate-limits';

useRateLimits();

let siteId: string;
let key: string;
beforeAll(async () => {
  const user = await createUser();
  siteId = await createSite(user, 'Shop', 'shop.example.com');
  key = (await createKey(user, siteId)).apiKey;
});
afterEach(() => vi.useRealTimers());

describe('visitor-session rate limits on the real routes', () => {
  it('every route that takes X-SA-API-KEY declares the visitor policy', () => {
    const visitorOps = operationsOf(routeManifest).filter(
      (o) => o.definition?.auth.kind === 'apiKey' && o.definition.auth.headers.includes('x-sa-api-key'),
    );
    expect(visitorOps.length).toBeGreaterThanOrEqual(12);
    for (const o of visitorOps) expect(o.definition?.rateLimit, `${o.method} ${o.path}`).toBe('visitor');
  });

  it('track answers with X-RateLimit headers and 429 after 60 requests per client IP in a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 21, 12, 0));
    const headers = { ...presenters.xSaApiKey(key), 'x-forwarded-for': '198.51.100.7' };
    const session = await call(startSession, {
      method: 'POST',
      path: '/api/visitors/session',
      headers,
      body: { site_id: siteId, fingerprint: 'fp-limits' },
    });
    expect(session.headers.get('x-ratelimit-limit')).toBe('60');
    const sessionId = session.body.data.session_id;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 60; i++) {
      last = await call(track, {
        method: 'POST',
        path: '/api/visitors/track',
        headers,
        body: { site_id: siteId, session_id: sessionId, event_type: 'click' },
      });
      statuses.push(last.status);
    }
    // The session start counted too: 59 tracks pass, the 60th is the 61st request of the minute.
    expect(statuses.slice(0, 59).every((s) => s === 200 || s === 201)).toBe(true);
    expect(statuses[59]).toBe(429);
    expect(last!.body.error.code).toBe('RATE_LIMITED');
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    vi.setSystemTime(Date.UTC(2026, 10, 21, 12, 1));
    const next = await call(track, {
      method: 'POST',
      path: '/api/visitors/track',
      headers,
      body: { site_id: siteId, session_id: sessionId, event_type: 'click' },
    });
    expect(next.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});
