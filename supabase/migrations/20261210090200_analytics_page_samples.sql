-- The page facts carry their visitor's sample too (see 20261210090000_analytics_session_samples.sql):
-- a sampled read with a page filter reads the page's entries of its share of the visitors alone.
alter table analytics_session_pages add column if not exists sample smallint;
update analytics_session_pages p set sample = f.sample from analytics_sessions f where f.session_id = p.session_id and p.sample is null;
alter table analytics_session_pages alter column sample set not null;
drop index if exists analytics_session_pages_viewed_idx;
create index if not exists analytics_session_pages_viewed_sample_idx on analytics_session_pages (site_id, path, sample, started_at)
  include (session_id, slot, page_views) where page_views > 0;
