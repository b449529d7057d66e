import { now } from '@/lib/core/clock';
import { log } from '@/lib/core/log';
import { SESSION_MAX_MS } from '@/lib/db/visitor-session-lifetime';
import { defineSiteSchedule, type JobContext } from '@/lib/jobs/define';
import { addDays, canonicalTimeZone, dateIn, daysOf, type Days } from './calendar';
import { recomputeDirtySlots } from './dimension-slots-repo';
import { oldestLiveSessionStart, rolledUpDays, rollUp, siteTimeZone, type FactDays } from './repo';
import { dropOpenDaysBefore, firstSessionStart, rollUpAgain, rollUpOpenDay, sitesWithVisits, staleDays } from './rollup-repo';
import { MAX_RANGE_DAYS } from './schema';
import { keepSessionFacts, refreshChangedSessionFacts } from './session-facts-repo';

/**
 * Day rollups, computed in the background as days finish. A finished day of a site — in UTC and in
 * the site's own time zone, the two calendars the reads use — has its facts computed once from the
 * raw rows (./repo.ts `rollUp`, the same query that answers for open days), so a read of a long
 * period sums kept rows instead of scanning a year of events. A read never rolls anything up: the
 * days it finds not rolled up yet it computes from the raw rows, and answers the same.
 *
 * A rolled-up day whose sessions are written to afterwards (activity, their close) is computed again.
 *
 * The open days (today, and yesterday while a session that started on it still takes activity) are
 * kept in part: on each run, the facts of the sessions that started before the oldest live one (and
 * a few minutes ago at the latest) and of their events of the day are computed again and kept
 * (`rollUpOpenDay`), so a read computes from the raw rows only the sessions started after that —
 * minutes of them on a live site — and their events.
 *
 * The sessions that can no longer change have their facts kept too, one row per session and per
 * page of it (./session-facts-repo.ts), and their sums per slot and dimension value
 * (./dimension-slots-repo.ts): the filtered reads sum those.
 */

/**
 * A day is finished — nothing in it can change — once its events are all written (its end plus a
 * margin for writes in flight) and no session that started on it still takes activity: at the
 * latest 24 hours after its end (the session cap), usually minutes after it.
 */
const FINISH_MARGIN_MS = 5 * 60_000;

/** How many of the leading days of `days` are finished at `at`. */
export async function finishedDays(siteId: string, days: Days, at: number): Promise<number> {
  const { dates, starts } = days;
  const ended = (i: number, after = 0) => starts[i + 1] + after + FINISH_MARGIN_MS <= at;
  let finished = 0;
  while (finished < dates.length && ended(finished, SESSION_MAX_MS)) finished++;
  let over = finished;
  while (over < dates.length && ended(over)) over++;
  if (over === finished) return finished;
  // Days that ended less than 24 hours ago are finished up to the day the oldest live session started on.
  const live = await oldestLiveSessionStart(siteId, starts[finished], at);
  while (finished < over && (live === undefined || starts[finished + 1] <= live)) finished++;
  return finished;
}

/** The days from `first` to `last` to compute, with the year before them (the days of visitors' previous sessions). */
export const factDays = (first: string, last: string, timeZone: string): FactDays => ({
  days: daysOf(first, last, timeZone),
  previous: daysOf(addDays(first, -MAX_RANGE_DAYS), last, timeZone),
});

/** Days one statement rolls up at most: a year of a busy site is rolled up a month at a time. */
const CHUNK_DAYS = 31;

/** Consecutive runs of the dates for which `pick` holds, of `most` days at most. */
export function runsOf(dates: string[], pick: (date: string) => boolean, most = Infinity): { from: string; to: string }[] {
  const runs: { from: string; to: string }[] = [];
  for (let i = 0; i < dates.length; i++) {
    if (!pick(dates[i])) continue;
    let j = i;
    while (j + 1 < dates.length && pick(dates[j + 1]) && j + 1 - i < most) j++;
    runs.push({ from: dates[i], to: dates[j] });
    i = j;
  }
  return runs;
}

/** The calendars a site's reads use: UTC, and the site's own time zone when it has another. */
async function zonesOf(siteId: string): Promise<string[]> {
  const configured = await siteTimeZone(siteId);
  const zone = configured === undefined ? undefined : canonicalTimeZone(configured);
  return zone && zone !== 'UTC' ? ['UTC', zone] : ['UTC'];
}

/**
 * Rolls up the finished days of a site not rolled up yet (from its first visit, at most the
 * longest period a read covers back), and again the recent ones whose sessions changed since.
 * Answers the days rolled up. Repeatable: a run cut short leaves the rest to the next.
 */
export async function rollUpSite(siteId: string, at = now(), signal?: AbortSignal): Promise<number> {
  const first = await firstSessionStart(siteId);
  if (first === undefined) return 0;
  const upto = await settledUpto(siteId, at);
  await keepSessionFacts(siteId, first, upto, at, signal);
  // Sessions take activity for 24 hours at most: only those of the last two days can have changed since kept.
  await refreshChangedSessionFacts(siteId, upto - 2 * SESSION_MAX_MS, upto, at);
  // The slot sums of the session facts deleted since (erased, pruned, kept again), from the facts left.
  await recomputeDirtySlots(siteId);
  let rolled = 0;
  for (const tz of await zonesOf(siteId)) {
    const today = dateIn(at, tz);
    const oldest = addDays(today, -MAX_RANGE_DAYS);
    const from = dateIn(first, tz) > oldest ? dateIn(first, tz) : oldest;
    const days = daysOf(from, today, tz);
    const finished = await finishedDays(siteId, days, at);
    await keepOpenDays(siteId, days, finished, upto, at);
    if (finished === 0) continue;
    const dates = days.dates.slice(0, finished);
    const done = await rolledUpDays(siteId, tz, dates);
    for (const run of runsOf(dates, (d) => !done.has(d), CHUNK_DAYS)) {
      if (signal?.aborted) return rolled;
      await rollUp(siteId, factDays(run.from, run.to, tz), at);
      rolled += days.dates.indexOf(run.to) - days.dates.indexOf(run.from) + 1;
    }
    // Sessions take activity for 24 hours at most: only the last two days' can have changed.
    const recent = Math.max(0, finished - 2);
    const stale = new Set(await staleDays(siteId, tz, dates.slice(recent), days.starts.slice(recent, finished + 1)));
    for (const run of runsOf(dates, (d) => stale.has(d), CHUNK_DAYS)) {
      await rollUpAgain(siteId, factDays(run.from, run.to, tz), at);
      rolled += days.dates.indexOf(run.to) - days.dates.indexOf(run.from) + 1;
    }
  }
  return rolled;
}

/**
 * When the sessions that can no longer change at `at` end: those started before the oldest live
 * session, and before the margin for writes in flight.
 */
async function settledUpto(siteId: string, at: number): Promise<number> {
  const live = await oldestLiveSessionStart(siteId, at - SESSION_MAX_MS, at);
  return Math.min(at - FINISH_MARGIN_MS, live ?? Infinity);
}

/**
 * Keeps the part of each open day of `days` (those from `finished` on) that can no longer change:
 * its sessions started before `upto` (./settledUpto), and their events. Forgets the kept parts of
 * the days finished since.
 */
async function keepOpenDays(siteId: string, days: Days, finished: number, upto: number, at: number): Promise<void> {
  const { dates, starts, timeZone } = days;
  if (finished > 0) await dropOpenDaysBefore(siteId, timeZone, dates[finished]);
  if (finished === dates.length) return;
  for (let i = finished; i < dates.length; i++) {
    const window = factDays(dates[i], dates[i], timeZone);
    await rollUpOpenDay(siteId, window, Math.min(upto, starts[i + 1]), at);
  }
}

/** Every 10 minutes, each site with visits has its finished days rolled up. */
export const analyticsRollup = defineSiteSchedule({
  name: 'analytics-rollup',
  everyMinutes: 10,
  sites: async () => (await sitesWithVisits()).map((siteId) => ({ siteId })),
  options: () => ({ expireInSeconds: 300, retryLimit: 2 }),
  async run(siteId: string, ctx: JobContext) {
    const rolled = await rollUpSite(siteId, now(), ctx.signal);
    if (rolled > 0) log.info('analytics: days rolled up', { site_id: siteId, days: rolled });
  },
});
