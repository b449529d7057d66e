-- Lead search reads the trigram index without a pending list: with GIN's fast update, new
-- entries wait in an unsorted list that every search scans in full until a vacuum merges it
-- (tens of milliseconds per search once it holds a few thousand leads). Leads are written one at
-- a time, so each insert merging its own entries costs little; search latency stays flat.
alter index leads_search_trgm_idx set (fastupdate = off);
-- Entries already waiting are merged now.
select gin_clean_pending_list('leads_search_trgm_idx'::regclass);
