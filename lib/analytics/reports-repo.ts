import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';

export interface ReportSettingsRow {
  frequency: 'off' | 'weekly' | 'monthly';
  recipients: string[];
  spike_threshold: number | null;
  last_report_key: string | null;
  last_spike_at: number | null;
}

export async function reportSettingsOf(siteId: string): Promise<ReportSettingsRow | undefined> {
  const [row] = await rows<ReportSettingsRow>(sql`
    select frequency, recipients::text[] as recipients, spike_threshold, last_report_key, last_spike_at::float8 as last_spike_at
    from analytics_report_settings where site_id = ${siteId}`);
  return row;
}

export async function upsertReportSettings(
  siteId: string,
  s: { frequency: string; recipients: string[]; spike_threshold: number | null },
): Promise<void> {
  await rows(sql`
    insert into analytics_report_settings (site_id, frequency, recipients, spike_threshold)
    values (${siteId}, ${s.frequency}, ${`{${s.recipients.join(',')}}`}::uuid[], ${s.spike_threshold})
    on conflict (site_id) do update set frequency = excluded.frequency, recipients = excluded.recipients,
      spike_threshold = excluded.spike_threshold, updated_at = now()`);
}

/** Sites with a report or an alert to look after. */
export async function sitesWithReports(): Promise<string[]> {
  const found = await rows<{ site_id: string }>(
    sql`select site_id from analytics_report_settings where frequency <> 'off' or spike_threshold is not null`,
  );
  return found.map((r) => r.site_id);
}

/** Claims the report of a period (false: it was claimed already). */
export async function claimReport(siteId: string, key: string, previous: string | null): Promise<boolean> {
  const found = await rows<{ site_id: string }>(sql`
    update analytics_report_settings set last_report_key = ${key}
    where site_id = ${siteId} and last_report_key is not distinct from ${previous} returning site_id`);
  return found.length > 0;
}

export async function releaseReport(siteId: string, key: string, previous: string | null): Promise<void> {
  await rows(sql`update analytics_report_settings set last_report_key = ${previous} where site_id = ${siteId} and last_report_key = ${key}`);
}

/** Claims the spike alert at `at` unless one went out within the hour before. */
export async function claimSpike(siteId: string, at: number, quietMs: number): Promise<boolean> {
  const found = await rows<{ site_id: string }>(sql`
    update analytics_report_settings set last_spike_at = ${at}::bigint
    where site_id = ${siteId} and (last_spike_at is null or last_spike_at <= ${at - quietMs}::bigint) returning site_id`);
  return found.length > 0;
}

/** Distinct visitors (people, not bots) active on the site since `since` (epoch ms). */
export async function visitorsActiveSince(siteId: string, since: number): Promise<number> {
  const [row] = await rows<{ n: number }>(sql`
    select count(distinct visitor_id)::int as n from visitor_sessions
    where site_id = ${siteId} and created_at > ${since - 86_400_000}::bigint and last_activity_at >= ${since}::bigint and not is_bot`);
  return row.n;
}
