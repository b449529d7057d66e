-- Lead search reads a stored, lower-cased search text. A search is a case-insensitive substring
-- match over name, email and company; it was `ilike` on the three joined by a unit separator
-- (chr(31)), served by a trigram index on that expression. Every candidate the index gives is
-- rechecked on its row, and the recheck rebuilt the joined text and lower-cased it (with the
-- pattern) for each of them: tens of thousands of rows for a broad search. The text is now a
-- generated column, lower-cased when the lead is written, with its own trigram index, so the
-- recheck is a plain `like` on it (the pattern lower-cased once). `ilike` compares lower(text)
-- with lower(pattern) (UTF-8), so the matches are the same. lib/leads/repo.ts builds the same
-- expression for the index-only walk of a sort key's index; keep the two identical.
--
-- Cost on an existing table: adding a stored generated column rewrites `leads` (and rebuilds its
-- b-tree indexes) under an exclusive lock, then the trigram index is built. The old trigram index
-- is dropped first so the rewrite does not rebuild it. Measured on Postgres at 1.2M leads: see
-- docs/OPERATIONS.md (Lead search at 1M leads per site).
drop index if exists leads_search_trgm_idx;
alter table leads
  add column if not exists search_text text generated always as (lower(name || chr(31) || email || chr(31) || coalesce(company, ''))) stored;
-- Without GIN's pending list (as 20261124140000_lead_search_index.sql): leads are written one at a
-- time, and a search never scans unmerged entries.
create index if not exists leads_search_text_trgm_idx on leads using gin (search_text gin_trgm_ops) with (fastupdate = off);
-- The planner estimates how many leads a search matches from the column's histogram: the share of
-- its entries the pattern matches. 1,000 entries (the default keeps 100) tell a search matching a
-- few hundred leads of a million from one matching tens of thousands, which decides between the
-- trigram index and walking the sort key's index. Gathered now (about a second at 1.2M leads): a
-- rewrite leaves no statistics, autovacuum gathers them only once enough rows change, and PGlite
-- has no autovacuum.
alter table leads alter column search_text set statistics 1000;
analyze leads (search_text);
