import { z } from 'zod';
import { now } from '@/lib/core/clock';
import { errorFields, log } from '@/lib/core/log';
import { uuidSchema } from '@/lib/core/schemas';
import { parseInput } from '@/lib/core/validate';
import { sendEmail } from '@/lib/email/service';
import { defineSiteSchedule } from '@/lib/jobs/define';
import { assertMembersOfSite, listMembers } from '@/lib/members/service';
import { addDays, canonicalTimeZone, dateIn } from './calendar';
import { siteTimeZone } from './repo';
import {
  claimReport,
  claimSpike,
  releaseReport,
  reportSettingsOf,
  sitesWithReports,
  upsertReportSettings,
  visitorsActiveSince,
} from './reports-repo';
import type { Figures } from './schema';
import { overview } from './service';

/**
 * Email reports and the traffic-spike alert. A site sends, to the members it names, a weekly
 * (Monday to Sunday) or monthly summary of its analytics — each figure against the period before
 * it — once the period has ended in the site's time zone; and, when visitors active in the last 5
 * minutes exceed a threshold, one alert, not again within the hour. Both go out through the email
 * port (the site's sender; the outbox or SMTP) from a site schedule (`analytics-reports`, every 5
 * minutes); a period is claimed before its mail goes out, so it is reported once.
 */

export const FREQUENCIES = ['off', 'weekly', 'monthly'] as const;
const SPIKE_WINDOW_MS = 5 * 60_000;
const SPIKE_QUIET_MS = 60 * 60_000;

export const reportSettingsSchema = z.strictObject({
  frequency: z.enum(FREQUENCIES).describe('off, weekly (Monday to Sunday) or monthly'),
  recipients: z.array(uuidSchema).max(50).describe('Members (user ids) who get the reports and alerts'),
  spike_threshold: z.number().int().min(1).max(1_000_000).nullable().describe('Visitors in the last 5 minutes above this send an alert; null: none'),
});
export type ReportSettings = z.infer<typeof reportSettingsSchema>;

export async function reportSettings(siteId: string): Promise<ReportSettings> {
  const row = await reportSettingsOf(siteId);
  return { frequency: row?.frequency ?? 'off', recipients: row?.recipients ?? [], spike_threshold: row?.spike_threshold ?? null };
}

export async function saveReportSettings(siteId: string, input: unknown): Promise<ReportSettings> {
  const s = parseInput(reportSettingsSchema, input, 'body');
  await assertMembersOfSite(siteId, s.recipients);
  await upsertReportSettings(siteId, { ...s, recipients: [...new Set(s.recipients)] });
  return reportSettings(siteId);
}

async function zoneOf(siteId: string): Promise<string> {
  const configured = await siteTimeZone(siteId);
  return (configured && canonicalTimeZone(configured)) || 'UTC';
}

/** The last ended week (Monday–Sunday) or month before `today`, and the one before it. */
export function reportPeriods(frequency: 'weekly' | 'monthly', today: string) {
  if (frequency === 'weekly') {
    const dow = new Date(`${today}T00:00:00Z`).getUTCDay();
    const to = addDays(today, -(dow === 0 ? 7 : dow));
    const from = addDays(to, -6);
    return { current: { from, to }, previous: { from: addDays(from, -7), to: addDays(from, -1) } };
  }
  const to = addDays(`${today.slice(0, 7)}-01`, -1);
  const from = `${to.slice(0, 7)}-01`;
  const prevTo = addDays(from, -1);
  return { current: { from, to }, previous: { from: `${prevTo.slice(0, 7)}-01`, to: prevTo } };
}

const FIGURES: [Exclude<keyof Figures, 'revenue'>, string, (v: number) => string][] = [
  ['visitors', 'Visitors', (v) => v.toLocaleString('en')],
  ['sessions', 'Sessions', (v) => v.toLocaleString('en')],
  ['page_views', 'Page views', (v) => v.toLocaleString('en')],
  ['bounce_rate', 'Bounce rate', (v) => `${Math.round(v * 100)}%`],
  ['avg_duration_ms', 'Avg. visit', (v) => `${Math.round(v / 1000)} s`],
  ['conversions', 'Conversions', (v) => v.toLocaleString('en')],
  ['new_leads', 'New leads', (v) => v.toLocaleString('en')],
];

/** One line per figure: this period's, the one before, and the change. */
export function reportLines(current: Figures, previous: Figures): string[] {
  return FIGURES.map(([key, label, show]) => {
    const a = current[key];
    const b = previous[key];
    const value = a === null ? '—' : show(a);
    const before = b === null ? '—' : show(b);
    let change = '';
    if (a !== null && b !== null) {
      if (key === 'bounce_rate') change = `${a >= b ? '+' : ''}${Math.round((a - b) * 100)} pts`;
      else if (b > 0) change = `${a >= b ? '+' : ''}${Math.round(((a - b) / b) * 100)}%`;
      else change = a > 0 ? 'new' : 'no change';
    }
    return `${label}: ${value} (before: ${before}${change ? `, ${change}` : ''})`;
  });
}

async function recipientsOf(siteId: string, ids: string[]): Promise<string[]> {
  const wanted = new Set(ids);
  return (await listMembers(siteId)).filter((m) => wanted.has(m.userId)).map((m) => m.email);
}

async function mail(siteId: string, to: string[], subject: string, text: string): Promise<void> {
  for (const address of to) await sendEmail(siteId, null, { to: [address], subject, text }, { unsubscribeFooter: false });
}

/** Sends the report of the last ended period when it is due; answers whether one went out. */
export async function sendDueReport(siteId: string, at = now()): Promise<boolean> {
  const row = await reportSettingsOf(siteId);
  if (!row || row.frequency === 'off' || row.recipients.length === 0) return false;
  const tz = await zoneOf(siteId);
  const { current, previous } = reportPeriods(row.frequency, dateIn(at, tz));
  const key = `${row.frequency}:${current.from}`;
  if (row.last_report_key === key) return false;
  const to = await recipientsOf(siteId, row.recipients);
  if (to.length === 0) return false;
  if (!(await claimReport(siteId, key, row.last_report_key))) return false;
  try {
    const [now_, before] = await Promise.all([
      overview(siteId, { ...current, timezone: 'site' }),
      overview(siteId, { ...previous, timezone: 'site' }),
    ]);
    const name = row.frequency === 'weekly' ? 'Weekly' : 'Monthly';
    const text = [
      `${name} report, ${current.from} to ${current.to} (${tz}), against ${previous.from} to ${previous.to}:`,
      '',
      ...reportLines(now_.totals, before.totals),
      '',
      'Sent because you are on the list of this site’s analytics reports; its settings change who gets them.',
    ].join('\n');
    await mail(siteId, to, `${name} analytics report: ${current.from} to ${current.to}`, text);
  } catch (error) {
    await releaseReport(siteId, key, row.last_report_key);
    throw error;
  }
  return true;
}

/** Sends the spike alert when visitors of the last 5 minutes exceed the threshold (once an hour at most). */
export async function checkSpike(siteId: string, at = now()): Promise<boolean> {
  const row = await reportSettingsOf(siteId);
  if (!row?.spike_threshold || row.recipients.length === 0) return false;
  const visitors = await visitorsActiveSince(siteId, at - SPIKE_WINDOW_MS);
  if (visitors <= row.spike_threshold) return false;
  if (row.last_spike_at !== null && row.last_spike_at > at - SPIKE_QUIET_MS) return false;
  const to = await recipientsOf(siteId, row.recipients);
  if (to.length === 0 || !(await claimSpike(siteId, at, SPIKE_QUIET_MS))) return false;
  await mail(
    siteId,
    to,
    `Traffic spike: ${visitors} visitors in the last 5 minutes`,
    `${visitors} visitors were on the site in the last 5 minutes, above the alert's threshold of ${row.spike_threshold}.\n\n` +
      'No other alert is sent within the next hour.',
  );
  return true;
}

/** Every 5 minutes, each site with a report or an alert: the report when due, the alert when traffic spikes. */
export const analyticsReports = defineSiteSchedule({
  name: 'analytics-reports',
  everyMinutes: 5,
  sites: async () => (await sitesWithReports()).map((siteId) => ({ siteId })),
  options: () => ({ expireInSeconds: 300, retryLimit: 3 }),
  async run(siteId: string) {
    const at = now();
    try {
      await checkSpike(siteId, at);
    } catch (error) {
      log.warn('analytics: spike alert not sent', { site_id: siteId, ...errorFields(error) });
    }
    await sendDueReport(siteId, at);
  },
});
