import { beforeAll, describe, expect, it } from 'vitest';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createUser, type TestUser } from '@/tests/helpers/harness';
import { limiterClock, useRateLimits } from '@/tests/helpers/rate-limits';
import { visitorTestRoute } from '@/tests/helpers/visitor-test-route';

useRateLimits();

const MINUTE = 60_000;

const track = visitorTestRoute;

let user: TestUser;
let siteId: string;
let key: string;
beforeAll(async () => {
  user = await createUser();
  siteId = await createSite(user, 'Shop', 'shop.example.com');
  key = (await createKey(user, siteId)).apiKey;
});
const setNow = limiterClock();

const send = (headers: Record<string, string>, site = siteId) =>
  call(track, { method: 'POST', path: '/test/track', headers, body: { site_id: site } });
const ip = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });

describe('visitor policy', () => {
  it('allows 60 requests per minute per client IP, with X-RateLimit headers on every answer', async () => {
    setNow(300 * MINUTE);
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await send({ ...presenters.xSaApiKey(key), ...ip(1) }));
    expect(results.slice(0, 60).every((r) => r.status === 200)).toBe(true);
    results.slice(0, 60).forEach((r, i) => {
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(59 - i));
      expect(r.headers.get('x-ratelimit-reset')).toBe(String((301 * MINUTE) / 1000));
    });
    expect(results[60].status).toBe(429);
    expect(results[60].body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('per client IP') });
    expect(results[60].headers.get('retry-after')).toBe('60');
    // Another address is not affected; the next window starts over.
    expect((await send({ ...presenters.xSaApiKey(key), ...ip(2) })).status).toBe(200);
    setNow(301 * MINUTE);
    expect((await send({ ...presenters.xSaApiKey(key), ...ip(1) })).status).toBe(200);
  });

  it('allows 1,000 requests per minute per API key across addresses', async () => {
    setNow(400 * MINUTE);
    const k = (await createKey(user, siteId)).apiKey;
    const statuses: number[] = [];
    let last;
    for (let n = 0; n < 17; n++) {
      for (let i = 0; i < 59; i++) {
        last = await send({ ...presenters.xSaApiKey(k), ...ip(100 + n) });
        statuses.push(last.status);
      }
    }
    expect(statuses.slice(0, 1000).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(1000)).toEqual([429, 429, 429]);
    expect(last!.body.error.message).toContain('per API key');
    expect(last!.headers.get('x-ratelimit-limit')).toBe('1000');
    // Another key of the same site has its own count.
    const other = (await createKey(user, siteId)).apiKey;
    expect((await send({ ...presenters.xSaApiKey(other), ...ip(200) })).status).toBe(200);
  });

  it('counts keyless browser calls per client IP as well', async () => {
    setNow(500 * MINUTE);
    const browser = { origin: 'https://shop.example.com', ...ip(50) };
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await send(browser));
    expect(results.filter((r) => r.status === 200)).toHaveLength(60);
    expect(results[60].status).toBe(429);
    // The browser can read the 429: it carries the CORS headers of the registered origin.
    expect(results[60].headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
  });
});
