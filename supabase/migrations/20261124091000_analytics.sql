-- Sessions that mean what analytics users expect, and the analytics reads built on them.
--
-- visitor_sessions gains two facts written when they happen:
--   conversions          conversion events stored in the session (the ingestion statement counts them),
--   previous_session_at  creation time of the visitor's previous session at the site (null for a
--                        first visit): "distinct visitors in a period" is then "sessions in the period
--                        whose previous session started before it", a sum instead of a distinct count.
alter table visitor_sessions add column if not exists conversions integer not null default 0 check (conversions >= 0);
alter table visitor_sessions add column if not exists previous_session_at bigint;

update visitor_sessions s set conversions = c.n
from (select session_id, count(*)::int as n from session_events where event_type = 'conversion' group by session_id) c
where c.session_id = s.id;

update visitor_sessions s set previous_session_at = p.prev
from (select id, lag(created_at) over (partition by visitor_id order by created_at, id) as prev from visitor_sessions) p
where p.id = s.id and p.prev is not null;

-- Sessions that expired before this release: last page as exit, bounce for a one-page visit, ended at the last activity.
update visitor_sessions
set exit_url = coalesce(exit_url, current_url),
    exit_type = case when page_views <= 1 then 'bounce' else 'timeout' end,
    ended_at = last_activity_at,
    duration = last_activity_at - created_at
where status = 'expired';

-- The path of a URL (no query, no fragment; '/' for a bare origin); relative URLs keep their path.
-- String functions rather than a capturing regex: it runs for every page view written.
create or replace function analytics_url_path(url text) returns text
language sql immutable parallel safe as $$
  select case
    when url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' then coalesce(nullif(substr(
      split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1),
      strpos(split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1) || '/', '/')), ''), '/')
    else nullif(split_part(split_part(url, '?', 1), '#', 1), '')
  end
$$;

-- The host of a URL, lower-case, without a leading "www."; null when the text is not an absolute URL.
create or replace function analytics_url_host(url text) returns text
language sql immutable parallel safe as $$
  select regexp_replace(lower(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^:/?#]+)')), '^www\.', '')
$$;

-- What the analytics group by, computed once when the row is written:
--   entry_path     the landing page's path;
--   referrer_host  the referring host (the text itself when it is not a URL, e.g. ?ref=producthunt),
--                  null for none and for the site's own host (direct traffic);
--   path           the path of a page view.
alter table visitor_sessions add column if not exists entry_path text generated always as (analytics_url_path(url)) stored;
alter table visitor_sessions add column if not exists referrer_host text
  generated always as (nullif(nullif(coalesce(analytics_url_host(referrer), referrer), ''), analytics_url_host(url))) stored;
alter table session_events add column if not exists path text
  generated always as (case when event_type = 'pageview' then analytics_url_path(url) end) stored;

-- Sessions still marked active after their expiry, for closeExpiredSessions.
create index if not exists visitor_sessions_expiring_idx on visitor_sessions (expires_at) where status = 'active';
-- Analytics leave bot sessions out: their ids, found by an anti-join, are few.
create index if not exists visitor_sessions_bots_idx on visitor_sessions (site_id, id) where is_bot;
-- Funnels read the named events of a period.
create index if not exists session_events_named_idx on session_events (site_id, event_name, received_at) include (session_id, "timestamp")
  where event_name is not null;

-- Rollups of finished days. A day (in a time zone: UTC or the site's) is rolled up on the first read
-- after nothing in it can change any more: its events are all received and no session that started
-- in it still takes activity. Its facts are then computed once from the raw rows by the same query
-- that answers for unfinished days, so a rolled-up day answers exactly as before.
create table if not exists analytics_days (
  site_id uuid not null references sites (id) on delete cascade,
  tz text not null,
  day date not null,
  computed_at bigint not null,
  primary key (site_id, tz, day)
);
alter table analytics_days enable row level security;
drop policy if exists analytics_days_tenant on analytics_days;
create policy analytics_days_tenant on analytics_days
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- One row per day, dimension and value. dim: total (value ''), revisit (value: the day of the
-- visitor's previous session), page, entry_page, referrer, utm_source, utm_medium, utm_campaign,
-- country, device. Session-scoped dimensions count the sessions that started that day; page and
-- the page views / conversions of `total` count the events received that day.
create table if not exists analytics_facts (
  site_id uuid not null references sites (id) on delete cascade,
  tz text not null,
  dim text not null,
  day date not null,
  -- '' stands for "none" (direct traffic, no campaign, unknown country) so it can be part of the key.
  value text not null,
  visitors integer not null default 0,
  sessions integer not null default 0,
  bounces integer not null default 0,
  duration_ms bigint not null default 0,
  page_views integer not null default 0,
  conversions integer not null default 0,
  primary key (site_id, tz, dim, day, value)
);
alter table analytics_facts enable row level security;
drop policy if exists analytics_facts_tenant on analytics_facts;
create policy analytics_facts_tenant on analytics_facts
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
