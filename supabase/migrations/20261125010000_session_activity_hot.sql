-- A session's activity (each event, each renewal, each update) moves its expires_at. An index on
-- expires_at made every such update write a new entry in each of the table's indexes; without one,
-- Postgres updates the row in place on its page (a HOT update) and writes no index entry at all.
-- Sessions still marked active are found by their start instead, which never moves: a session
-- runs out of time at the latest 24 hours after it started (lib/visitors/lifetime.ts), so the
-- lapsed condition is checked on the rows of that index.
drop index if exists visitor_sessions_expiring_idx;
create index if not exists visitor_sessions_active_idx on visitor_sessions (site_id, created_at) where status = 'active';
-- Room on each page for the new version of an updated row next to the old one (a session is
-- updated many times in its first minutes): HOT needs the new version on the same page.
alter table visitor_sessions set (fillfactor = 85);
