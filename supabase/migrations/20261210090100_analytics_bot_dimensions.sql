-- The Overview counts the bots of its period apart, filtered like the people when the read is: the
-- bots' index carries the columns the session dimensions are read from (not the current page, which
-- every event changes: the rows stay updated in place), so a filtered count reads the index alone
-- too, not one heap page per bot session spread over the whole table.
drop index if exists visitor_sessions_bots_created_idx;
create index if not exists visitor_sessions_bots_read_idx on visitor_sessions (site_id, created_at)
  include (id, visitor_id, is_bot, entry_path, referrer_host, utm_source, utm_medium, utm_campaign, utm_term, utm_content, location, device, browser)
  where is_bot;
