-- The leads' GIN indexes (the two trigram indexes of the search text and the custom properties'
-- containment index) take new entries through a small pending list (64 kB) instead of inserting
-- each entry into the index itself. A lead's ~40 trigrams were each a descent of the trigram
-- index: a 10,000-row import spent three quarters of its writes there (Postgres 3.6 s of 4.7 s,
-- PGlite 10.6 s of 13 s; bench/RESULTS.md). From the pending list they are merged sorted, many
-- leads at once, whenever it passes 64 kB — by the write that fills it, so it never waits for a
-- vacuum (PGlite has none). A search scans the pending list in full as well as the index: at most
-- 64 kB (a hundred or so leads' entries), not the 4 MB default that made searches slow before
-- (20261124140000_lead_search_index.sql).
alter index leads_search_text_trgm_idx set (fastupdate = on, gin_pending_list_limit = 64);
alter index leads_search_text_sample_trgm_idx set (fastupdate = on, gin_pending_list_limit = 64);
alter index leads_custom_properties_idx set (fastupdate = on, gin_pending_list_limit = 64);
