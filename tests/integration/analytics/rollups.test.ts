import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rollUpSite } from '@/lib/analytics/rollups';
import { BREAKDOWN_DIMENSIONS } from '@/lib/analytics/schema';
import { breakdown, overview } from '@/lib/analytics/service';
import { getDb } from '@/lib/db/client';
import { updateSettings } from '@/lib/settings/service';
import { testClock } from '@/tests/helpers/clock';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { BOT, UA, visitorBrowser } from '@/tests/helpers/visitor-browser';

const MIN = 60_000;

/**
 * The background rollup in the site's time zone: days end at the site's midnight (a daylight-saving
 * change included), both calendars are rolled up, and a read answers the same before and after.
 */
let t: Tenant;
const useClock = testClock();

async function visit(when: number, path: string) {
  const visitor = visitorBrowser(t, useClock);
  await visitor.land(when, { url: `https://shop.example.com${path}` });
  await visitor.event(when, { event_type: 'pageview', url: `https://shop.example.com${path}` });
}

async function kept(): Promise<Record<string, string[]>> {
  const db = await getDb();
  const found = (await db.execute(
    sql`select tz, to_char(day, 'YYYY-MM-DD') as day from analytics_days where site_id = ${t.siteId} order by tz, day`,
  )) as unknown as { rows: { tz: string; day: string }[] };
  const byZone: Record<string, string[]> = {};
  for (const r of found.rows) (byZone[r.tz] ??= []).push(r.day);
  return byZone;
}

beforeAll(async () => {
  t = await createTenant();
  await updateSettings(t.siteId, { business_hours: { timezone: 'Europe/Madrid' } });
  // Madrid leaves summer time on 25 October 2026 (a 25-hour day). 23:30 UTC on the 24th is 01:30 on the 25th in Madrid.
  await visit(Date.parse('2026-10-24T21:30:00Z'), '/late-saturday');
  await visit(Date.parse('2026-10-24T23:30:00Z'), '/sunday-night');
  // 23:30 UTC on the 25th is 00:30 on Monday the 26th in Madrid (winter time, UTC+1).
  await visit(Date.parse('2026-10-25T23:30:00Z'), '/monday-in-madrid');
});

describe('background rollups in the site’s time zone', () => {
  it('rolls up both calendars; a read answers the same from the raw rows and from the rollups', async () => {
    useClock(Date.parse('2026-10-30T12:00:00Z'));
    const period = { from: '2026-10-24', to: '2026-10-26', timezone: 'site' as const };
    const raw = await overview(t.siteId, period);
    expect(raw.series.map((d) => [d.date, d.sessions])).toEqual([
      ['2026-10-24', 1],
      ['2026-10-25', 1],
      ['2026-10-26', 1],
    ]);
    expect(await kept()).toEqual({});
    expect(await rollUpSite(t.siteId)).toBeGreaterThan(0);
    const zones = await kept();
    expect(zones['Europe/Madrid'].slice(0, 3)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26']);
    expect(zones.UTC.slice(0, 2)).toEqual(['2026-10-24', '2026-10-25']);
    expect(await overview(t.siteId, period)).toEqual(raw);
    // In UTC the Sunday-night visit is Saturday's.
    const utc = await overview(t.siteId, { from: '2026-10-24', to: '2026-10-25' });
    expect(utc.series.map((d) => d.sessions)).toEqual([2, 1]);
  });
});

/**
 * The open day kept in part by the job: every read of a site — in UTC and in a time zone half an
 * hour off UTC's hours — answers the same from the rollups (finished days, the open day's kept
 * part) as from the raw rows alone, while visits go on after the job ran.
 */
describe('the open day kept in part', () => {
  let site: Tenant;
  const T0 = Date.parse('2026-11-20T00:00:00Z');
  // The zone as the calendar names it (ICU's canonical name may be the older one).
  const INDIA_TODAY = /^Asia\/(Kolkata|Calcutta) 2026-11-20$/;

  function browser(country: string, ua = UA) {
    const visitor = visitorBrowser(site, useClock, ua);
    return {
      async land(at: number, url: string, referrer?: string) {
        await visitor.land(at, { url: `https://shop.example.com${url}`, referrer, location: { country } });
        await visitor.event(at, { event_type: 'pageview', url: `https://shop.example.com${url}` });
      },
      event: visitor.event,
      view: (at: number, path: string) => visitor.event(at, { event_type: 'pageview', url: `https://shop.example.com${path}` }),
    };
  }

  // The breakdowns summed from the rollups (links and goals are read from their events).
  const ROLLED_UP = BREAKDOWN_DIMENSIONS.filter((d) => !['outbound_links', 'downloads', 'goals'].includes(d));

  /** Every read of the last week (days, pages, each dimension), in UTC and in the site's zone. */
  async function everything() {
    const reads: unknown[] = [];
    for (const timezone of ['utc', 'site'] as const) {
      const period = { from: '2026-11-14', to: '2026-11-20', timezone };
      reads.push(await overview(site.siteId, period));
      for (const dimension of ROLLED_UP) reads.push(await breakdown(site.siteId, dimension, period));
    }
    return reads;
  }

  /** The same reads from the raw rows alone: the site's rollups set aside (the next job run computes them again). */
  async function fromRawRows() {
    const db = await getDb();
    for (const table of ['analytics_facts', 'analytics_days', 'analytics_open_facts', 'analytics_open_days'])
      await db.execute(sql`delete from ${sql.identifier(table)} where site_id = ${site.siteId}`);
    return everything();
  }

  async function openDays(): Promise<string[]> {
    const db = await getDb();
    const found = (await db.execute(
      sql`select tz || ' ' || to_char(day, 'YYYY-MM-DD') as k from analytics_open_days where site_id = ${site.siteId} order by 1`,
    )) as unknown as { rows: { k: string }[] };
    return found.rows.map((r) => r.k);
  }

  beforeAll(async () => {
    site = await createTenant();
    // India is UTC+5:30: its days start at 18:30 UTC.
    await updateSettings(site.siteId, { business_hours: { timezone: 'Asia/Kolkata' } });
    const ada = browser('ES');
    await ada.land(T0 - 2 * 24 * 60 * MIN + 10 * 60 * MIN, '/?utm_source=newsletter', 'https://www.google.com/search');
    await ada.view(T0 - 2 * 24 * 60 * MIN + 10 * 60 * MIN + 2 * MIN, '/pricing');
    await ada.event(T0 - 2 * 24 * 60 * MIN + 10 * 60 * MIN + 3 * MIN, { event_type: 'conversion', event_name: 'purchase' });
    // Across UTC midnight: begun yesterday, page views today.
    const night = browser('US');
    await night.land(T0 - 10 * MIN, '/blog', 'https://news.ycombinator.com/item');
    await night.view(T0 + 10 * MIN, '/pricing');
    // Ada comes back today (a revisit); a bounce from Germany; a crawler.
    await ada.land(T0 + 9 * 60 * MIN, '/');
    await ada.view(T0 + 9 * 60 * MIN + 5 * MIN, '/docs');
    await browser('DE').land(T0 + 10 * 60 * MIN, '/?utm_source=partner&utm_campaign=fall');
    await browser('US', BOT).land(T0 + 11 * 60 * MIN, '/pricing');
    // Still on the site when the job runs at 14:00 (its oldest live session: the kept part ends before it).
    const live = browser('FR');
    await live.land(T0 + 13 * 60 * MIN, '/features');
    await live.view(T0 + 13 * 60 * MIN + 25 * MIN, '/pricing');
    await live.view(T0 + 13 * 60 * MIN + 50 * MIN, '/signup');
  });

  it('answers the same from the rollups as from the raw rows, the open day included, before and after more visits', async () => {
    useClock(T0 + 14 * 60 * MIN);
    const raw = await everything();
    await rollUpSite(site.siteId);
    // Today in UTC and in India (where 14:00 UTC is 19:30), and nothing before: those days are finished and rolled up.
    expect(await openDays()).toEqual([expect.stringMatching(INDIA_TODAY), 'UTC 2026-11-20']);
    useClock(T0 + 14 * 60 * MIN);
    expect(await everything()).toEqual(raw);

    // After the run: the live visitor goes on, and a new one lands; the kept part stays as it was.
    const later = browser('DE');
    await later.land(T0 + 14 * 60 * MIN + 5 * MIN, '/pricing?utm_source=partner');
    await later.view(T0 + 14 * 60 * MIN + 6 * MIN, '/signup');
    useClock(T0 + 14 * 60 * MIN + 10 * MIN);
    const kept = await everything();
    expect(kept).toEqual(await fromRawRows());

    // The next run keeps more of the day (the first live visitor has gone); the same answers.
    useClock(T0 + 15 * 60 * MIN);
    await rollUpSite(site.siteId);
    useClock(T0 + 15 * 60 * MIN);
    expect(await openDays()).toEqual([expect.stringMatching(INDIA_TODAY), 'UTC 2026-11-20']);
    expect(await everything()).toEqual(kept);
  }, 120_000);
});
