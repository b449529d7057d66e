-- What the tracking tag now reports, and the privacy modes of a visit.
--
-- Hash routers (`data-hash-routing`): a fragment that is a route (`#/pricing`, `#!/pricing`) is part
-- of the page's path, so `/app#/pricing` and `/app#/checkout` are two pages; any other fragment
-- (`#section`) is still left out. Rows written before keep the path they had.
create or replace function analytics_url_path(url text) returns text
language sql immutable parallel safe as $$
  select case
    when url ~ '^[A-Za-z][A-Za-z0-9+.-]*://' then coalesce(nullif(substr(
      split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1),
      strpos(split_part(split_part(substr(url, strpos(url, '://') + 3), '?', 1), '#', 1) || '/', '/')), ''), '/')
    else nullif(split_part(split_part(url, '?', 1), '#', 1), '')
  end || coalesce(split_part(substring(url from '#!?/[^#]*$'), '?', 1), '')
$$;

-- The engagement of a page (engagement events: properties.engaged_ms, properties.scroll_depth),
-- kept with the page's facts: sums and the number of engagement events they add up.
alter table analytics_facts add column if not exists engaged_ms bigint not null default 0;
alter table analytics_facts add column if not exists scroll_depth bigint not null default 0;
alter table analytics_facts add column if not exists engagements integer not null default 0;

-- Rollups are a cache of the raw rows: the days kept before this release lack the new dimensions
-- (exit pages, browsers, operating systems) and the engagement of pages, so they are computed
-- again by the next read that covers them.
delete from analytics_facts;
delete from analytics_days;

-- Outbound links and downloads are read from their events: few, and counted per link with
-- distinct visitors over the whole period.
create index if not exists session_events_clicks_idx on session_events (site_id, event_type, received_at)
  include (session_id, visitor_id) where event_type in ('outbound', 'download');

-- The salts of cookieless visitors: one random salt per day, deleted when the day is over, so a
-- visitor's daily id (a hash of site, salt, IP address and User-Agent) cannot be recomputed later.
create table if not exists visitor_salts (
  day date primary key,
  salt text not null
);
-- No policy: only the server itself (the table's owner) reads the salts; no tenant ever does.
alter table visitor_salts enable row level security;
