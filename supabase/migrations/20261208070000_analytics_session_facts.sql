-- Per-session facts for the filtered analytics reads, kept by the analytics-rollup job as sessions
-- finish. A filtered read (`filter=country:DE`) sums these compact rows instead of reading the
-- matching sessions and all their events from the raw rows; the sessions started since the job's
-- last pass it still computes from the raw rows, with the same query the job keeps them by.
--
-- analytics_sessions_kept: one row per site: every person's session that started before `upto`
-- (epoch ms; none of them took activity any more when it was computed) has its facts kept.
create table if not exists analytics_sessions_kept (
  site_id uuid primary key references sites (id) on delete cascade,
  upto bigint not null,
  computed_at bigint not null
);
alter table analytics_sessions_kept enable row level security;
drop policy if exists analytics_sessions_kept_tenant on analytics_sessions_kept;
create policy analytics_sessions_kept_tenant on analytics_sessions_kept
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- One row per session of a person: its dimensions, its figures, and its page views and
-- conversions as events with the first and last 15-minute slot they were received in (a session whose
-- events fall on one day of the read's calendar is counted from this row alone). Erasing or pruning
-- the session removes its facts (cascade); computed_at tells the job which changed since.
create table if not exists analytics_sessions (
  session_id uuid primary key references visitor_sessions (id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  visitor_id uuid not null,
  created_at bigint not null,
  entry_page text,
  exit_page text,
  referrer text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  country text,
  device text,
  browser text,
  os text,
  page_views integer not null,
  conversions integer not null,
  duration_ms bigint not null,
  event_page_views integer not null,
  event_conversions integer not null,
  first_slot bigint,
  last_slot bigint,
  computed_at bigint not null
);
alter table analytics_sessions enable row level security;
drop policy if exists analytics_sessions_tenant on analytics_sessions;
create policy analytics_sessions_tenant on analytics_sessions
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
create index if not exists analytics_sessions_created_idx on analytics_sessions (site_id, created_at);
-- The selective dimensions a filter names most: their sessions of a period read from the index alone,
-- side by side, with the figures a read sums (the period's rows of other values are not read).
create index if not exists analytics_sessions_country_idx on analytics_sessions (site_id, country, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);
create index if not exists analytics_sessions_source_idx on analytics_sessions (site_id, utm_source, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);
create index if not exists analytics_sessions_referrer_idx on analytics_sessions (site_id, referrer, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);

-- A session's page views, engagement and conversions per page and 15-minute slot of receipt (every
-- time zone's day starts on a slot): what a `page` filter and the pages breakdown read.
create table if not exists analytics_session_pages (
  session_id uuid not null references analytics_sessions (session_id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  started_at bigint not null,
  slot bigint not null,
  path text,
  page_views integer not null,
  conversions integer not null,
  engaged_ms bigint not null,
  scroll_depth bigint not null,
  engagements integer not null
);
alter table analytics_session_pages enable row level security;
drop policy if exists analytics_session_pages_tenant on analytics_session_pages;
create policy analytics_session_pages_tenant on analytics_session_pages
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
create index if not exists analytics_session_pages_session_idx on analytics_session_pages (session_id);
-- The sessions that viewed a page, and the page's views by slot, from the index alone (a `page` filter).
create index if not exists analytics_session_pages_viewed_idx on analytics_session_pages (site_id, path, started_at)
  include (session_id, slot, page_views) where page_views > 0;
