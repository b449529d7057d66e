-- Per-slot sums of the session facts by dimension value, kept by the analytics-rollup job with the
-- facts: what an overview filtered on one dimension (`country!:US`, `utm_source:newsletter`) sums
-- instead of every matching session row. Only its distinct visitors are still counted per session.
--
-- One row per dimension, value and 15-minute slot (of a batch of sessions kept: a slot may have
-- several, a read sums them): the sessions that started in the slot (their count, bounces,
-- duration, page views and conversions) and the page views and conversions received in it.
-- The rows sum exactly the session facts kept (analytics_sessions) outside the site's `dirty`
-- spans: deleting session facts (erasure, retention, a session kept again) adds the span of their
-- slots, a read that meets one sums the session rows, and the job's next pass computes the spans
-- again from the facts and clears them.
create table if not exists analytics_dimension_slots (
  site_id uuid not null references sites (id) on delete cascade,
  dim text not null,
  value text,
  slot bigint not null,
  sessions integer not null,
  bounces integer not null,
  duration_ms bigint not null,
  page_views integer not null,
  conversions integer not null,
  event_page_views integer not null,
  event_conversions integer not null
);
alter table analytics_dimension_slots enable row level security;
drop policy if exists analytics_dimension_slots_tenant on analytics_dimension_slots;
create policy analytics_dimension_slots_tenant on analytics_dimension_slots
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
-- A read of one dimension over a period from the index alone.
create index if not exists analytics_dimension_slots_read_idx on analytics_dimension_slots (site_id, dim, slot)
  include (value, sessions, bounces, duration_ms, page_views, conversions, event_page_views, event_conversions);

-- The spans (epoch ms) whose slots no longer sum the facts kept; null when they all do.
alter table analytics_sessions_kept add column if not exists dirty int8multirange;

create or replace function analytics_sessions_deleted() returns trigger language plpgsql as $$
begin
  update analytics_sessions_kept k
  set dirty = coalesce(k.dirty, '{}'::int8multirange) + d.spans
  from (
    select site_id, range_agg(int8range(least(created_at, coalesce(first_slot, created_at)),
                                        greatest(created_at + 1, coalesce(last_slot + 900000, 0)))) as spans
    from gone group by site_id
  ) d
  where k.site_id = d.site_id;
  return null;
end $$;

drop trigger if exists analytics_sessions_mark_dirty on analytics_sessions;
create trigger analytics_sessions_mark_dirty
  after delete on analytics_sessions
  referencing old table as gone
  for each statement execute function analytics_sessions_deleted();
