-- Goals, revenue and filtered analytics reads.
--
-- A goal names what counts as reaching it on a site: events with a name (`event`), conversion
-- events with a name (`conversion`), or page views whose path matches a pattern (`page`, `*` for
-- any characters). Goals are a breakdown of their own and a filter of every analytics read.
create table if not exists analytics_goals (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  type text not null check (type in ('event', 'conversion', 'page')),
  match text not null check (length(match) between 1 and 500),
  created_at bigint not null,
  updated_at bigint not null
);
-- A goal's name is unique on its site, whatever the case (filters name goals).
create unique index if not exists analytics_goals_site_name_key on analytics_goals (site_id, lower(name));
alter table analytics_goals enable row level security;
drop policy if exists analytics_goals_tenant on analytics_goals;
create policy analytics_goals_tenant on analytics_goals
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Revenue is read from the conversion events of a period (few next to page views).
create index if not exists session_events_conversions_idx on session_events (site_id, received_at)
  include (session_id, visitor_id) where event_type = 'conversion';

-- A filtered read cannot use the day rollups: it reads the sessions of the period that match. The
-- most selective filters owners ask for (a campaign, a source, a referrer, a country, a landing
-- page) find their sessions on an index of their own; these columns never change once a session
-- is written, so the frequent updates of a session's activity stay heap-only.
create index if not exists visitor_sessions_utm_source_idx on visitor_sessions (site_id, utm_source, created_at) where not is_bot;
create index if not exists visitor_sessions_utm_campaign_idx on visitor_sessions (site_id, utm_campaign, created_at) where not is_bot;
create index if not exists visitor_sessions_referrer_idx on visitor_sessions (site_id, referrer_host, created_at) where not is_bot;
create index if not exists visitor_sessions_country_idx on visitor_sessions (site_id, (location ->> 'country'), created_at) where not is_bot;
create index if not exists visitor_sessions_entry_idx on visitor_sessions (site_id, entry_path, created_at) where not is_bot;
