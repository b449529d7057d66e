import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { ALL_PARTS, factsQuery, rollUp, type FactDays } from './repo';

/** A Postgres array literal of dates (values that need no quoting). */
const dateArray = (dates: string[]) => `{${dates.join(',')}}`;

/** When the site's first session started (epoch ms; undefined: none yet). */
export async function firstSessionStart(siteId: string): Promise<number | undefined> {
  const [row] = await rows<{ at: number | null }>(sql`select min(created_at)::float8 as at from visitor_sessions where site_id = ${siteId}`);
  return row?.at ?? undefined;
}

/**
 * The rolled-up days of `dates` (in `tz`) whose sessions changed after their facts were computed:
 * a session that started on the day and was written to since (activity, its close).
 */
export async function staleDays(siteId: string, tz: string, dates: string[], starts: number[]): Promise<string[]> {
  if (!dates.length) return [];
  const found = await rows<{ day: string }>(sql`
    with cal as (select ${`{${starts.join(',')}}`}::bigint[] as starts, ${dateArray(dates)}::date[] as dates)
    select distinct to_char(d.day, 'YYYY-MM-DD') as day
    from visitor_sessions s, cal
    join analytics_days d on d.site_id = ${siteId} and d.tz = ${tz}
    where s.site_id = ${siteId} and s.created_at >= ${starts[0]}::bigint and s.created_at < ${starts[starts.length - 1]}::bigint
      and d.day = cal.dates[width_bucket(s.created_at, cal.starts)] and s.updated_at > d.computed_at`);
  return found.map((r) => r.day);
}

/** Computes the facts of the days of `window` again, replacing the kept ones in one transaction (a read sees the old or the new). */
export async function rollUpAgain(siteId: string, window: FactDays, now: number): Promise<void> {
  const db = await getDb();
  const { dates, timeZone } = window.days;
  await db.transaction(async (tx) => {
    await rows(sql`delete from analytics_facts where site_id = ${siteId} and tz = ${timeZone} and day = any(${dateArray(dates)}::date[])`, tx);
    await rows(sql`delete from analytics_days where site_id = ${siteId} and tz = ${timeZone} and day = any(${dateArray(dates)}::date[])`, tx);
    await rollUp(siteId, window, now, tx);
  });
}

/** The sites that have had a visit (the only ones with days to roll up). */
export async function sitesWithVisits(): Promise<string[]> {
  const found = await rows<{ id: string }>(sql`select id from sites s where exists (select 1 from visitor_sessions v where v.site_id = s.id)`);
  return found.map((r) => r.id);
}

/** The open days of `dates` (in `tz`) with a kept part: up to when their sessions are kept. */
export async function openDaysKept(siteId: string, tz: string, dates: string[]): Promise<Map<string, number>> {
  if (!dates.length) return new Map();
  const found = await rows<{ day: string; upto: number }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, upto::float8 as upto from analytics_open_days
    where site_id = ${siteId} and tz = ${tz} and day = any(${dateArray(dates)}::date[])`);
  return new Map(found.map((r) => [r.day, r.upto]));
}

/**
 * Keeps the part of an open day (`window`: that one day) that can no longer change: the sessions
 * that started before `upto` — none of them takes activity any more — and their events of the day.
 * Replaces the part kept before in one transaction (a read sees the old or the new).
 */
export async function rollUpOpenDay(siteId: string, window: FactDays, upto: number, now: number): Promise<void> {
  const db = await getDb();
  const { timeZone } = window.days;
  const day = window.days.dates[0];
  await db.transaction(async (tx) => {
    await rows(sql`delete from analytics_open_facts where site_id = ${siteId} and tz = ${timeZone} and day = ${day}::date`, tx);
    await rows(sql`delete from analytics_open_days where site_id = ${siteId} and tz = ${timeZone} and day = ${day}::date`, tx);
    await rows(
      sql`insert into analytics_open_days (site_id, tz, day, upto, computed_at) values (${siteId}, ${timeZone}, ${day}::date, ${upto}::bigint, ${now}::bigint)`,
      tx,
    );
    await rows(
      sql`
      insert into analytics_open_facts (site_id, tz, dim, day, value, visitors, sessions, bounces, duration_ms, page_views, conversions,
                                        engaged_ms, scroll_depth, engagements)
      select ${siteId}, ${timeZone}, dim, day, value, visitors, sessions, bounces, duration_ms::bigint, page_views, conversions,
             engaged_ms::bigint, scroll_depth::bigint, engagements
      from (${factsQuery(siteId, window, ALL_PARTS, undefined, { before: upto })}) f`,
      tx,
    );
  });
}

/** Forgets the kept parts of the open days before `day` (in `tz`): rolled up whole by now. */
export async function dropOpenDaysBefore(siteId: string, tz: string, day: string): Promise<void> {
  await rows(sql`delete from analytics_open_facts where site_id = ${siteId} and tz = ${tz} and day < ${day}::date`);
  await rows(sql`delete from analytics_open_days where site_id = ${siteId} and tz = ${tz} and day < ${day}::date`);
}
