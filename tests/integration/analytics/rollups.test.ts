import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { rollUpSite } from '@/lib/analytics/rollups';
import { overview } from '@/lib/analytics/service';
import { getDb } from '@/lib/db/client';
import { updateSettings } from '@/lib/settings/service';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * The background rollup in the site's time zone: days end at the site's midnight (a daylight-saving
 * change included), both calendars are rolled up, and a read answers the same before and after.
 */
let t: Tenant;
const useClock = testClock();
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function visit(when: number, path: string) {
  useClock(when);
  const headers = { ...presenters.xSaApiKey(t.key), 'user-agent': UA };
  const started = await call(createRoute, {
    method: 'POST',
    path: '/api/visitors/session',
    headers,
    body: { site_id: t.siteId, fingerprint: `fp-${Math.random().toString(36).slice(2)}`, url: `https://shop.example.com${path}` },
  });
  expect(started.status).toBeLessThan(300);
  const tracked = await call(trackRoute, {
    method: 'POST',
    path: '/api/visitors/track',
    headers,
    body: { site_id: t.siteId, session_id: started.body.data.session_id, event_type: 'pageview', url: `https://shop.example.com${path}` },
  });
  expect(tracked.status).toBe(201);
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
