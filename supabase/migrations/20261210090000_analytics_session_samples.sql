-- Sampled filtered reads. A filtered read of a period holding more sessions than a read can count
-- in time reads the sessions of a fixed share of the visitors (their sample, 0–63, from their id)
-- and scales its figures by the inverse of that share; distinct visitors stay exact within the
-- sample. The session facts carry their visitor's sample and their indexes start each value's
-- entries by it, so a read of one share of the visitors reads only that share's entries.
create or replace function analytics_sample(visitor uuid) returns smallint
  language sql immutable strict parallel safe
  as $$ select (get_byte(uuid_send(visitor), 15) % 64)::smallint $$;

alter table analytics_sessions add column if not exists sample smallint generated always as (analytics_sample(visitor_id)) stored;

create index if not exists analytics_sessions_sample_idx on analytics_sessions (site_id, sample, created_at);
drop index if exists analytics_sessions_country_idx;
create index if not exists analytics_sessions_country_sample_idx on analytics_sessions (site_id, country, sample, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);
drop index if exists analytics_sessions_source_idx;
create index if not exists analytics_sessions_source_sample_idx on analytics_sessions (site_id, utm_source, sample, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);
drop index if exists analytics_sessions_referrer_idx;
create index if not exists analytics_sessions_referrer_sample_idx on analytics_sessions (site_id, referrer, sample, created_at)
  include (session_id, visitor_id, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot);
