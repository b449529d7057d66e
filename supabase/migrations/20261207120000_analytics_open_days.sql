-- The part of an open day (today, in UTC or the site's time zone) that can no longer change, kept
-- by the analytics-rollup job as the day goes on, so a read computes from the raw rows only the
-- sessions started after `upto` (and their events) instead of the whole day.
--
-- analytics_open_days: one row per site, time zone and open day: the kept part covers the sessions
-- that started before `upto` (epoch ms; none of them took activity any more when it was computed)
-- and the events of the day that belong to them. The job replaces it as `upto` moves on, and
-- deletes it once the whole day is rolled up (analytics_days).
create table if not exists analytics_open_days (
  site_id uuid not null references sites (id) on delete cascade,
  tz text not null,
  day date not null,
  upto bigint not null,
  computed_at bigint not null,
  primary key (site_id, tz, day)
);
alter table analytics_open_days enable row level security;
drop policy if exists analytics_open_days_tenant on analytics_open_days;
create policy analytics_open_days_tenant on analytics_open_days
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- The facts of that part: the rows of analytics_facts, for the open days only.
create table if not exists analytics_open_facts (
  site_id uuid not null references sites (id) on delete cascade,
  tz text not null,
  dim text not null,
  day date not null,
  value text not null,
  visitors integer not null default 0,
  sessions integer not null default 0,
  bounces integer not null default 0,
  duration_ms bigint not null default 0,
  page_views integer not null default 0,
  conversions integer not null default 0,
  engaged_ms bigint not null default 0,
  scroll_depth bigint not null default 0,
  engagements integer not null default 0,
  primary key (site_id, tz, dim, day, value)
);
alter table analytics_open_facts enable row level security;
drop policy if exists analytics_open_facts_tenant on analytics_open_facts;
create policy analytics_open_facts_tenant on analytics_open_facts
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
