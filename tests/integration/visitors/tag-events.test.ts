import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getSession, POST as createRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { GET as breakdownRoute } from '@/app/sites/[site_id]/analytics/breakdown/[dimension]/route';
import { getDb } from '@/lib/db/client';
import { updateSettings } from '@/lib/settings/service';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * What the tracking tag sends beyond page views, as the server takes it: the events of a page left
 * and of clicks (their properties checked), bodies sent as text/plain, hash routes as pages, and the
 * privacy modes of a visit — cookieless, and Global Privacy Control honoured or not.
 */
let plain: Tenant;
let cookieless: Tenant;
let ignoresGpc: Tenant;
beforeAll(async () => {
  [plain, cookieless, ignoresGpc] = await Promise.all([createTenant(), createTenant(), createTenant()]);
  await updateSettings(cookieless.siteId, { tracking: { cookieless: true } });
  await updateSettings(ignoresGpc.siteId, { tracking: { respect_gpc: false } });
});
const useClock = testClock();

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SHOP = 'https://shop.example.com';

const browserHeaders = (t: Tenant, ip = '198.51.100.20', extra: Record<string, string> = {}) => ({
  ...presenters.xSaApiKey(t.key),
  'user-agent': UA,
  'x-forwarded-for': ip,
  'x-vercel-ip-country': 'DE',
  'x-vercel-ip-city': 'Berlin',
  ...extra,
});
const start = (t: Tenant, body: Record<string, unknown> = {}, headers = browserHeaders(t)) =>
  call(createRoute, { method: 'POST', path: '/api/visitors/session', headers, body: { site_id: t.siteId, url: `${SHOP}/`, ...body } });
const track = (t: Tenant, sessionId: string, body: Record<string, unknown>) =>
  call(trackRoute, {
    method: 'POST',
    path: '/api/visitors/track',
    headers: browserHeaders(t),
    body: { site_id: t.siteId, session_id: sessionId, ...body },
  });
const readSession = (t: Tenant, sessionId: string) =>
  call(getSession, { path: '/api/visitors/session', headers: presenters.xSaApiKey(t.key), query: { session_id: sessionId, site_id: t.siteId } });

describe('the events of a page left and of clicks', () => {
  let sessionId: string;
  beforeAll(async () => {
    useClock(T0);
    sessionId = (await start(plain, { fingerprint: 'fp-events' })).body.data.session_id;
  });

  it.each([
    ['engagement without figures', { event_type: 'engagement' }, 'properties.engaged_ms'],
    [
      'engagement with a scroll depth over 100',
      { event_type: 'engagement', properties: { engaged_ms: 10, scroll_depth: 101 } },
      'properties.scroll_depth',
    ],
    ['engagement with a fractional time', { event_type: 'engagement', properties: { engaged_ms: 1.5, scroll_depth: 10 } }, 'properties.engaged_ms'],
    ['outbound without a link', { event_type: 'outbound', properties: {} }, 'properties.href'],
    ['download with an empty link', { event_type: 'download', properties: { href: '' } }, 'properties.href'],
  ])('%s → 400 naming the property, nothing stored', async (_, body, path) => {
    useClock(T0 + 500);
    const res = await track(plain, sessionId, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(`body.${path}`);
    expect((await readSession(plain, sessionId)).body.data.events).toEqual([]);
  });

  it('stores each kind with its properties, and takes a body sent as text/plain (no CORS preflight)', async () => {
    const events = [
      { event_type: 'engagement', url: `${SHOP}/`, properties: { engaged_ms: 4200, scroll_depth: 80 } },
      { event_type: 'outbound', url: `${SHOP}/`, properties: { href: 'https://partner.example/' } },
      { event_type: 'download', url: `${SHOP}/`, properties: { href: `${SHOP}/brochure.pdf` } },
      { event_type: 'form_submit', url: `${SHOP}/contact`, properties: { id: 'contact', action: '/contact', method: 'post' } },
    ];
    for (const [i, e] of events.entries()) {
      useClock(T0 + 1000 * (i + 1));
      const res = await call(trackRoute, {
        method: 'POST',
        path: '/api/visitors/track',
        headers: { ...browserHeaders(plain), 'content-type': 'text/plain;charset=UTF-8' },
        rawBody: JSON.stringify({ site_id: plain.siteId, session_id: sessionId, ...e }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const stored = (await readSession(plain, sessionId)).body.data.events;
    expect(stored.map((e: any) => [e.event_type, e.properties])).toEqual(events.map((e) => [e.event_type, e.properties]));
  });
});

describe('hash routes', () => {
  it('a route in the fragment (#/…, #!/…) is a page of its own; any other fragment is not', async () => {
    const t = await createTenant();
    useClock(T0);
    const sessionId = (await start(t, { fingerprint: 'fp-hash', url: `${SHOP}/app#/` })).body.data.session_id;
    for (const url of [`${SHOP}/app#/`, `${SHOP}/app#/pricing?plan=pro`, `${SHOP}/app?ref=x#!/checkout`, `${SHOP}/docs#install`]) {
      expect((await track(t, sessionId, { event_type: 'pageview', url })).status).toBe(201);
    }
    const res = await call(breakdownRoute, {
      path: `/sites/${t.siteId}/analytics/breakdown/pages`,
      params: { site_id: t.siteId, dimension: 'pages' },
      query: { from: '2026-11-21', to: '2026-11-21' },
      headers: presenters.xApiKey(t.readKey),
    });
    expect(res.body.data.items.map((i: { value: string }) => i.value).sort()).toEqual(['/app#!/checkout', '/app#/', '/app#/pricing', '/docs']);
  });
});

describe('privacy modes of a visit', () => {
  const storedVisitor = async (visitorId: string) => {
    const db = await getDb();
    const found = await db.execute(sql`select fingerprint from visitors where id = ${visitorId}`);
    return (found as unknown as { rows: { fingerprint: string | null }[] }).rows[0];
  };

  it('a site in cookieless mode counts a visit under a daily id: same browser and address → same session; the id sent is never stored', async () => {
    useClock(T0);
    const first = await start(cookieless, { fingerprint: 'fp-stored-before' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ anonymous: true, fingerprint: null, is_new_session: true });
    // The next page load sends no id (the tag keeps none): the visit goes on.
    useClock(T0 + 60_000);
    const next = await start(cookieless, {});
    expect(next.body.data).toMatchObject({ anonymous: true, session_id: first.body.data.session_id, is_new_session: false });
    const session = (await readSession(cookieless, first.body.data.session_id)).body.data;
    expect(session.location).toEqual({ country: 'DE' });
    expect(session.fingerprint).toMatch(/^daily:[\w-]{43}$/);
    expect((await storedVisitor(first.body.data.visitor_id)).fingerprint).toBe(session.fingerprint);

    // Another address or browser is another visitor; so is the same browser on the next day (a new salt).
    const elsewhere = await start(cookieless, {}, browserHeaders(cookieless, '198.51.100.21'));
    expect(elsewhere.body.data.visitor_id).not.toBe(first.body.data.visitor_id);
    useClock(T0 + DAY);
    const tomorrow = await start(cookieless, {});
    expect(tomorrow.body.data.visitor_id).not.toBe(first.body.data.visitor_id);
    useClock(T0 + 3 * DAY);
    await start(cookieless, {});
    const db = await getDb();
    const salts = await db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day from visitor_salts order by day`);
    // The salts of days before yesterday are gone: a daily id cannot be computed again.
    expect((salts as unknown as { rows: { day: string }[] }).rows.map((r) => r.day).every((d) => d >= '2026-11-23')).toBe(true);
  });

  it.each([
    ['the body says so (navigator.globalPrivacyControl)', { privacy_signal: true }, {}],
    ['Sec-GPC: 1', {}, { 'sec-gpc': '1' }],
    ['DNT: 1', {}, { dnt: '1' }],
  ])('a browser asking not to be tracked (%s) is anonymous where the site honours it (the default)', async (_, body, headers) => {
    useClock(T0);
    const res = await start(plain, { fingerprint: `fp-gpc-${Math.random()}`, ...body }, browserHeaders(plain, '198.51.100.30', headers));
    expect(res.body.data).toMatchObject({ anonymous: true, fingerprint: null });
    expect((await storedVisitor(res.body.data.visitor_id)).fingerprint).toMatch(/^daily:/);
    expect((await readSession(plain, res.body.data.session_id)).body.data.location).toEqual({ country: 'DE' });
  });

  it('a site that does not honour the signal keeps the visitor id, and a visit without a signal is never anonymous', async () => {
    useClock(T0);
    const ignored = await start(
      ignoresGpc,
      { fingerprint: 'fp-kept', privacy_signal: true },
      browserHeaders(ignoresGpc, '198.51.100.31', { 'sec-gpc': '1' }),
    );
    expect(ignored.body.data).toMatchObject({ anonymous: false, fingerprint: 'fp-kept' });
    const usual = await start(plain, { fingerprint: 'fp-usual' });
    expect(usual.body.data).toMatchObject({ anonymous: false, fingerprint: 'fp-usual' });
    expect((await readSession(plain, usual.body.data.session_id)).body.data.location).toEqual({ country: 'DE', city: 'Berlin' });
  });
});
