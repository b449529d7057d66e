-- An event's key is its session again (visitor_sessions' primary key), not (session, site, visitor).
-- The database checks a key with a plan each connection makes once and keeps; made while
-- visitor_sessions had no statistics (a new installation, or a Postgres without autovacuum), the
-- check of the three columns was planned on visitor_sessions_site_idx — every session of the event's
-- site read on every tracked event — and stayed so: 42M index entries read for 8,000 events, track at
-- 117 req/s. A check by `id` alone has no index to pick but the primary key's. The event batch takes
-- an event's site and visitor from the session row it locks (lib/visitors/ingest.ts), the one place
-- that writes events. Deleting a site or a visitor still deletes its sessions, and each session its
-- events, through this key.
alter table session_events drop constraint if exists session_events_session_owner_fkey;
alter table session_events drop constraint if exists session_events_session_id_fkey;
alter table session_events add constraint session_events_session_id_fkey
  foreign key (session_id) references visitor_sessions (id) on delete cascade;
-- It served only the dropped key: one index entry less per session start.
drop index if exists visitor_sessions_owner_key;
