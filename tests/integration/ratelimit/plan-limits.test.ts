import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GET as listSites } from '@/app/sites/route';
import { defineRoute } from '@/lib/http/define-route';
import { setSitePlan } from '@/lib/sites/repo';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createTenant, type Tenant } from '@/tests/helpers/harness';
import { limiterClock, useRateLimits } from '@/tests/helpers/rate-limits';

useRateLimits();

const MINUTE = 60_000;

async function burst(key: string, count: number) {
  const results = [];
  for (let i = 0; i < count; i++) results.push(await call(listSites, { path: '/sites', headers: presenters.xApiKey(key) }));
  return results;
}

/**
 * A test-only API-key route whose handler waits until the test lets it finish (or fail). Requests
 * reach the handler in any order, so each one is found by the `x-test-call` header it was sent with.
 */
function gatedRoute() {
  const waiting: { call: string | null; finish: () => void; fail: () => void }[] = [];
  const route = defineRoute({
    summary: 'test: slow route',
    tags: ['test'],
    auth: { kind: 'apiKey', headers: ['x-api-key'] },
    response: z.object({ ok: z.boolean() }),
    handler: ({ req }) =>
      new Promise<{ ok: boolean }>((resolve, reject) => {
        waiting.push({ call: req.headers.get('x-test-call'), finish: () => resolve({ ok: true }), fail: () => reject(new Error('handler failed')) });
      }),
  });
  const of = (call: number) => waiting.find((w) => w.call === String(call))!;
  const started = async (n: number) => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThanOrEqual(n), { timeout: 10_000, interval: 5 });
  };
  return { route, waiting, started, of };
}

describe('plan limits on API-key routes', () => {
  let basic: Tenant;
  beforeAll(async () => {
    basic = await createTenant();
  });
  const setNow = limiterClock();

  it('Basic: 60 requests per minute per site, then 429 RATE_LIMITED with Retry-After and headers', async () => {
    setNow(100 * MINUTE + 1_000);
    const results = await burst(basic.key, 61);
    expect(results.slice(0, 60).every((r) => r.status === 200)).toBe(true);
    expect(results[0].headers.get('x-ratelimit-limit')).toBe('60');
    expect(results[0].headers.get('x-ratelimit-remaining')).toBe('59');
    expect(results[59].headers.get('x-ratelimit-remaining')).toBe('0');
    expect(results[0].headers.get('x-ratelimit-reset')).toBe(String((101 * MINUTE) / 1000)); // Unix seconds
    const over = results[60];
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      success: false,
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringContaining('60 requests per minute'),
        details: { limit: 60, retry_after: 59 },
        request_id: expect.any(String),
      },
    });
    expect(over.headers.get('retry-after')).toBe('59');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');

    // Another key of the same site shares the site's count; another site does not.
    const second = await createKey(basic.user, basic.siteId, ['read']);
    expect((await burst(second.apiKey, 1))[0].status).toBe(429);
    const other = await createTenant();
    expect((await burst(other.key, 1))[0].status).toBe(200);

    // The next window starts over.
    setNow(101 * MINUTE);
    const next = await burst(basic.key, 1);
    expect(next[0].status).toBe(200);
    expect(next[0].headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('Pro: 300 per minute; Enterprise: the values stored for the site', async () => {
    setNow(200 * MINUTE);
    const pro = await createTenant();
    await setSitePlan(pro.siteId, { plan: 'pro' });
    const proResults = await burst(pro.key, 301);
    expect(proResults.filter((r) => r.status === 200)).toHaveLength(300);
    expect(proResults[300].status).toBe(429);
    expect(proResults[0].headers.get('x-ratelimit-limit')).toBe('300');

    const ent = await createTenant();
    await setSitePlan(ent.siteId, { plan: 'enterprise', rate_limit_per_minute: 7, concurrency_limit: 2 });
    const entResults = await burst(ent.key, 8);
    expect(entResults.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    expect(entResults[0].headers.get('x-ratelimit-limit')).toBe('7');
  });

  it('refuses an error or an unauthenticated call before counting it', async () => {
    const t = await createTenant();
    await call(listSites, { path: '/sites', headers: presenters.xApiKey(t.revokedKey) });
    const ok = await burst(t.key, 1);
    expect(ok[0].headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('concurrency caps', () => {
  it('Basic holds 5 requests of a site in flight; the 6th gets 429 with its own message; slots free when handlers end', async () => {
    const t = await createTenant();
    const { route, waiting, started, of } = gatedRoute();
    const send = (n = -1) => call(route, { path: '/test/slow', headers: { ...presenters.xApiKey(t.key), 'x-test-call': String(n) } });
    const inFlight = Array.from({ length: 5 }, (_, n) => send(n));
    await started(5);
    const sixth = await send();
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('concurrent'),
      details: { concurrent_limit: 5 },
    });
    expect(sixth.headers.get('retry-after')).toBe('1');

    of(0).finish();
    of(1).fail(); // a failing handler releases its slot too
    const [first, second] = await Promise.all([inFlight[0], inFlight[1]]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(500);
    const again = [send(), send()];
    await started(7);
    expect((await send()).status).toBe(429);
    for (const w of waiting) if (w !== of(0) && w !== of(1)) w.finish();
    expect((await Promise.all([...inFlight.slice(2), ...again])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('releases the slot as soon as the client aborts, even while the handler still runs', async () => {
    const t = await createTenant();
    const { route, waiting, started } = gatedRoute();
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const inFlight = controllers.map((c) => call(route, { path: '/test/slow', headers: presenters.xApiKey(t.key), signal: c.signal }));
    await started(5);
    expect(await call(route, { path: '/test/slow', headers: presenters.xApiKey(t.key) }).then((r) => r.status)).toBe(429);
    for (const c of controllers) c.abort();
    const after = call(route, { path: '/test/slow', headers: presenters.xApiKey(t.key) });
    await started(6);
    for (const w of waiting) w.finish();
    expect((await after).status).toBe(200);
    await Promise.all(inFlight);
  });

  it('an Enterprise site gets its own cap', async () => {
    const t = await createTenant();
    await setSitePlan(t.siteId, { plan: 'enterprise', rate_limit_per_minute: 1000, concurrency_limit: 2 });
    const { route, waiting, started } = gatedRoute();
    const inFlight = [0, 1].map(() => call(route, { path: '/test/slow', headers: presenters.xApiKey(t.key) }));
    await started(2);
    const third = await call(route, { path: '/test/slow', headers: presenters.xApiKey(t.key) });
    expect(third.status).toBe(429);
    expect(third.body.error.details).toEqual({ concurrent_limit: 2, retry_after: 1 });
    for (const w of waiting) w.finish();
    await Promise.all(inFlight);
  });
});
