-- Lead search sorted by a searched field (name, email, company): the page is found by walking the
-- sort key's index in order and filtering each entry on the index alone (an index-only scan: the
-- searched fields, status and segment are in the index), so a search that many leads match fills
-- its page after a few hundred entries without reading the table. lib/leads/repo.ts (listLeads)
-- walks at most a bounded number of entries; a search that does not fill its page within them is
-- served by the trigram index (leads_search_trgm_idx).
drop index if exists leads_site_name_idx;
create index if not exists leads_site_name_walk_idx on leads (site_id, name, id) include (email, company, status, segment_id);
drop index if exists leads_site_company_idx;
create index if not exists leads_site_company_walk_idx on leads (site_id, company, id) include (name, email, status, segment_id);
create index if not exists leads_site_email_walk_idx on leads (site_id, email, id) include (name, company, status, segment_id);
