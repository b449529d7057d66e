-- A filtered read by page (`filter=page:/pricing`, and goals on a page) finds the sessions that viewed
-- the page from the page views of that path alone, not by reading every event of every session.
create index if not exists session_events_page_idx on session_events (site_id, path, received_at) include (session_id)
  where event_type = 'pageview';

-- The Overview counts the bots' sessions and distinct visitors of its period apart: few rows, but
-- spread over the whole table; read from the index alone.
create index if not exists visitor_sessions_bots_created_idx on visitor_sessions (site_id, created_at) include (visitor_id, is_bot)
  where is_bot;
