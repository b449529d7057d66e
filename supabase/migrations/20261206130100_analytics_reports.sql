-- Email reports of a site's analytics and its traffic-spike alert: one row of settings per site.
-- `last_report_key` names the last period reported (`weekly:2026-11-23`), claimed before its mail goes
-- out, so a period is reported once whatever the retries; `last_spike_at` (epoch ms) holds the alert
-- back for an hour after it was sent.
create table if not exists analytics_report_settings (
  site_id uuid primary key references sites (id) on delete cascade,
  frequency text not null default 'off' check (frequency in ('off', 'weekly', 'monthly')),
  -- Members (users) who get the mails; someone who leaves the site stops getting them.
  recipients uuid[] not null default '{}',
  -- Visitors in the last 5 minutes above this: one alert mail (null: no alert).
  spike_threshold integer check (spike_threshold is null or spike_threshold > 0),
  last_report_key text,
  last_spike_at bigint,
  updated_at timestamptz not null default now()
);
create index if not exists analytics_report_settings_active_idx on analytics_report_settings (site_id)
  where frequency <> 'off' or spike_threshold is not null;
alter table analytics_report_settings enable row level security;
drop policy if exists analytics_report_settings_tenant on analytics_report_settings;
create policy analytics_report_settings_tenant on analytics_report_settings
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
