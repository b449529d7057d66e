-- An event belongs to its session, and its site and visitor are the session's: the event batch
-- takes them from the session row it locks (lib/visitors/ingest.ts). One foreign key on the three
-- columns holds that in the database — an event can name no site or visitor but its session's —
-- where three keys checked each column on its own: three lookups per stored event where one does
-- (PGlite, the track route: the holder's CPU per event ~175 → ~150 µs). Deleting a site or a visitor
-- deletes its sessions, and each session its events, through this key.
create unique index if not exists visitor_sessions_owner_key on visitor_sessions (id, site_id, visitor_id);
alter table session_events drop constraint if exists session_events_site_id_fkey;
alter table session_events drop constraint if exists session_events_visitor_id_fkey;
alter table session_events drop constraint if exists session_events_session_id_fkey;
alter table session_events drop constraint if exists session_events_session_owner_fkey;
alter table session_events add constraint session_events_session_owner_fkey
  foreign key (session_id, site_id, visitor_id) references visitor_sessions (id, site_id, visitor_id) on delete cascade;
-- A visitor's events were deleted by their visitor_id through the dropped key; now by their session.
drop index if exists session_events_visitor_idx;
