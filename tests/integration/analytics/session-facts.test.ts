import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { createGoal } from '@/lib/analytics/goals';
import { rollUpSite } from '@/lib/analytics/rollups';
import type { BreakdownDimension } from '@/lib/analytics/schema';
import { breakdown, overview } from '@/lib/analytics/service';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { eraseVisitor } from '@/lib/people/erase-repo';
import { updateSettings } from '@/lib/settings/service';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * The session facts the job keeps for the filtered reads: every filtered read answers the same from
 * them as from the raw rows alone — in UTC and in a zone half an hour off UTC's hours, for a session
 * across midnight, one still going on when the job runs, one closed after its facts were kept, and
 * after a visitor is erased (their facts go with them).
 */
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.parse('2026-11-20T00:00:00Z');
const SITE = 'https://shop.example.com';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const useClock = testClock();
let site: Tenant;

function browser(country: string, ua = UA) {
  const headers = { ...presenters.xSaApiKey(site.key), 'user-agent': ua };
  const fingerprint = `fp-${Math.random().toString(36).slice(2)}`;
  const me = { sessionId: '', visitorId: '' };
  return {
    me,
    async land(at: number, url: string, referrer?: string) {
      useClock(at);
      const res = await call(createRoute, {
        method: 'POST',
        path: '/api/visitors/session',
        headers,
        body: { site_id: site.siteId, fingerprint, url: SITE + url, referrer, location: { country } },
      });
      expect(res.status).toBeLessThan(300);
      me.sessionId = res.body.data.session_id;
      me.visitorId = res.body.data.visitor_id;
      await this.event(at, { event_type: 'pageview', url: SITE + url });
    },
    async event(at: number, body: Record<string, unknown>) {
      useClock(at);
      const res = await call(trackRoute, {
        method: 'POST',
        path: '/api/visitors/track',
        headers,
        body: { site_id: site.siteId, session_id: me.sessionId, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    },
    view(at: number, path: string) {
      return this.event(at, { event_type: 'pageview', url: SITE + path });
    },
  };
}

const FILTERS = [
  ['country:DE'],
  ['country!:US'],
  ['country:(none)'],
  ['page:/pricing'],
  ['page!:/pricing'],
  ['page:/blog*'],
  ['page:*'],
  ['page:/pricing', 'country!:US'],
  ['utm_source:newsletter'],
  ['utm_source!:newsletter'],
  ['referrer:news.ycombinator.com'],
  ['entry_page:/', 'device!:mobile'],
  ['exit_page:/signup'],
  ['goal:Purchase'],
  ['goal!:Purchase'],
];
const DIMENSIONS: BreakdownDimension[] = ['pages', 'entry_pages', 'exit_pages', 'countries', 'utm_sources', 'utm_terms', 'referrers'];

/** Every filtered read of the last week (overview with the week before, each breakdown), in UTC and in the site's zone. */
async function everything() {
  const reads: unknown[] = [];
  for (const timezone of ['utc', 'site'] as const) {
    const period = { from: '2026-11-14', to: '2026-11-20', timezone };
    for (const filter of FILTERS) {
      reads.push(await overview(site.siteId, { ...period, filter, compare: 'previous' }));
      for (const dimension of DIMENSIONS) reads.push(await breakdown(site.siteId, dimension, { ...period, filter }));
    }
  }
  return reads;
}

/** The same reads from the raw rows alone: the session facts set aside (the next job run keeps them again). */
async function fromRawRows() {
  const db = await getDb();
  await db.execute(sql`delete from analytics_sessions where site_id = ${site.siteId}`);
  await db.execute(sql`delete from analytics_sessions_kept where site_id = ${site.siteId}`);
  return everything();
}

const keptFacts = async () =>
  (
    await rows<{ sessions: number; pages: number }>(sql`
      select (select count(*)::int from analytics_sessions where site_id = ${site.siteId}) as sessions,
             (select count(*)::int from analytics_session_pages where site_id = ${site.siteId}) as pages`)
  )[0];

let ada: ReturnType<typeof browser>;
let night: ReturnType<typeof browser>;

beforeAll(async () => {
  site = await createTenant();
  // India is UTC+5:30: its days start at 18:30 UTC.
  await updateSettings(site.siteId, { business_hours: { timezone: 'Asia/Kolkata' } });
  await createGoal(site.siteId, { name: 'Purchase', type: 'conversion', match: 'purchase' });
  ada = browser('ES');
  const a0 = T0 - 2 * DAY + 10 * 60 * MIN;
  await ada.land(a0, '/?utm_source=newsletter&utm_term=shoes', 'https://www.google.com/search');
  await ada.view(a0 + 2 * MIN, '/pricing');
  await ada.event(a0 + 3 * MIN, { event_type: 'engagement', url: `${SITE}/pricing`, properties: { engaged_ms: 42_000, scroll_depth: 80 } });
  await ada.event(a0 + 4 * MIN, { event_type: 'conversion', event_name: 'purchase', url: `${SITE}/checkout` });
  // Across UTC midnight (and across a slot): begun yesterday, page views today.
  night = browser('US');
  await night.land(T0 - 10 * MIN, '/blog/launch', 'https://news.ycombinator.com/item');
  await night.view(T0 + 10 * MIN, '/pricing');
  await night.event(T0 + 12 * MIN, { event_type: 'conversion', event_name: 'purchase', url: `${SITE}/checkout` });
  // Ada comes back today; a bounce from Germany; a visit with no country; a crawler.
  await ada.land(T0 + 9 * 60 * MIN, '/');
  await ada.view(T0 + 9 * 60 * MIN + 5 * MIN, '/docs');
  await browser('DE').land(T0 + 10 * 60 * MIN, '/?utm_source=partner&utm_campaign=fall');
  const nowhere = browser('');
  await nowhere.land(T0 + 10 * 60 * MIN + 30 * MIN, '/blog/guide');
  await nowhere.view(T0 + 10 * 60 * MIN + 31 * MIN, '/signup');
  await browser('US', BOT).land(T0 + 11 * 60 * MIN, '/pricing');
  // Still on the site when the job runs at 14:00.
  const live = browser('FR');
  await live.land(T0 + 13 * 60 * MIN, '/features');
  await live.view(T0 + 13 * 60 * MIN + 25 * MIN, '/pricing');
  await live.view(T0 + 13 * 60 * MIN + 50 * MIN, '/signup');
});

describe('session facts of the filtered reads', () => {
  it('answer as the raw rows do: kept by the job, with the sessions since from the raw rows, as visits go on', async () => {
    useClock(T0 + 14 * 60 * MIN);
    const raw = await everything();
    expect(await keptFacts()).toEqual({ sessions: 0, pages: 0 });
    await rollUpSite(site.siteId);
    // Every finished session of a person is kept (not the live one, nor the crawler's).
    expect((await keptFacts()).sessions).toBe(5);
    useClock(T0 + 14 * 60 * MIN);
    expect(await everything()).toEqual(raw);

    // After the run: the live visitor goes on, a new one lands.
    const later = browser('DE');
    await later.land(T0 + 14 * 60 * MIN + 5 * MIN, '/pricing?utm_source=newsletter');
    await later.view(T0 + 14 * 60 * MIN + 6 * MIN, '/signup');
    useClock(T0 + 14 * 60 * MIN + 10 * MIN);
    const kept = await everything();
    expect(kept).not.toEqual(raw);
    expect(kept).toEqual(await fromRawRows());

    // The next run keeps them all again, and more (the first live visitor has gone).
    useClock(T0 + 15 * 60 * MIN);
    await rollUpSite(site.siteId);
    expect((await keptFacts()).sessions).toBe(7);
    useClock(T0 + 15 * 60 * MIN);
    expect(await everything()).toEqual(kept);
  }, 240_000);

  it('a session written to after its facts were kept (ended when its visitor came back) is kept again by the next run', async () => {
    const [{ before }] = await rows<{ before: number }>(
      sql`select computed_at::float8 as before from analytics_sessions where session_id = ${night.me.sessionId}::uuid`,
    );
    const first = night.me.sessionId;
    await night.land(T0 + 15 * 60 * MIN + 5 * MIN, '/docs');
    useClock(T0 + 15 * 60 * MIN + 40 * MIN);
    await rollUpSite(site.siteId);
    const [{ after, status }] = await rows<{ after: number; status: string }>(
      sql`select f.computed_at::float8 as after, s.status from analytics_sessions f join visitor_sessions s on s.id = f.session_id
          where f.session_id = ${first}::uuid`,
    );
    expect(status).toBe('expired');
    expect(after).toBeGreaterThan(before);
    useClock(T0 + 15 * 60 * MIN + 40 * MIN);
    const kept = await everything();
    expect(kept).toEqual(await fromRawRows());
  }, 240_000);

  it('erasing a visitor removes their facts', async () => {
    useClock(T0 + 16 * 60 * MIN);
    await rollUpSite(site.siteId);
    const before = await keptFacts();
    await eraseVisitor(site.siteId, ada.me.visitorId);
    const left = await rows<{ n: number }>(
      sql`select (select count(*)::int from analytics_sessions where visitor_id = ${ada.me.visitorId}::uuid)
               + (select count(*)::int from analytics_session_pages p where not exists (select 1 from analytics_sessions s where s.session_id = p.session_id)) as n`,
    );
    expect(left[0].n).toBe(0);
    expect((await keptFacts()).sessions).toBe(before.sessions - 2);
    useClock(T0 + 16 * 60 * MIN);
    const kept = await everything();
    expect(kept).toEqual(await fromRawRows());
  }, 240_000);
});
