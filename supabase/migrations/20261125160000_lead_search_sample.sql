-- A trigram index over one lead in four, to prove cheaply that a search matches more leads than a
-- page sorted by name, email or company may sort (LEAD_SEARCH_SORT_CAP in lib/leads/repo.ts). The
-- full trigram index (leads_search_text_trgm_idx) is only read through a bitmap: it lists every
-- candidate of a search before the first row is read, 30,000-60,000 at 1M leads for a term
-- tens of thousands of leads have, ~13 ms of the refusal. This one lists a quarter of them; when
-- more than the cap of the sampled leads match, so do more than the cap of all, and the search is
-- refused after reading only those. The sample is the leads whose random id ends in a byte below
-- 64: lib/leads/repo.ts writes the same predicate (SEARCH_SAMPLE), keep the two identical.
--
-- Cost: one lead in four written also enters this index (the GIN insert of its trigrams); built in
-- ~4 s at 1.2M leads. Measured on Postgres: docs/OPERATIONS.md (Lead search at 1M leads per site).
create index if not exists leads_search_text_sample_trgm_idx on leads using gin (search_text gin_trgm_ops) with (fastupdate = off)
  where get_byte(uuid_send(id), 15) < 64;
