-- The walk of a sort key's index (lead search sorted by name, email or company: lib/leads/repo.ts,
-- walkSortIndex) reads the stored search text from the index instead of joining and lower-casing
-- name, email and company for each entry it passes. Lower-casing was half of a walk: 3,000 entries
-- took ~1.8 ms, ~0.8 ms reading `search_text` (Postgres, 1M leads per site). The indexes carry
-- the search text, status and segment in place of the two other searched fields, which the walk
-- only needed to build the text; they are no larger (the company index: 199 -> 180 MB at 1.2M).
--
-- Cost on an existing table: the three indexes are built (writes to leads wait, reads do not), then
-- the previous ones dropped; the walk is served by either meanwhile. Measured at 1.2M leads: see
-- docs/OPERATIONS.md (Lead search at 1M leads per site).
create index if not exists leads_site_name_search_idx on leads (site_id, name, id) include (search_text, status, segment_id);
create index if not exists leads_site_email_search_idx on leads (site_id, email, id) include (search_text, status, segment_id);
create index if not exists leads_site_company_search_idx on leads (site_id, company, id) include (search_text, status, segment_id);
drop index if exists leads_site_name_walk_idx;
drop index if exists leads_site_email_walk_idx;
drop index if exists leads_site_company_walk_idx;
