-- CRM tool routes: lead search indexes.

-- Lead search is a case-insensitive substring match over name, email and company: one
-- `ilike '%term%'` on the three joined by a unit separator (chr(31), which a search term may not
-- contain, so a match never spans two fields). A trigram GIN index on that exact expression
-- serves both the page and the count without scanning the site's leads. lib/leads/repo.ts
-- builds the same expression; keep the two identical.
create extension if not exists pg_trgm;
create index if not exists leads_search_trgm_idx on leads
  using gin ((name || chr(31) || email || chr(31) || coalesce(company, '')) gin_trgm_ops);

-- Sort keys offered by leads/get (`sort_by`), each with the site first so a page is an index range.
-- (email is served by leads_site_email_key, created_at by leads_site_created_idx.)
create index if not exists leads_site_name_idx on leads (site_id, name, id);
create index if not exists leads_site_company_idx on leads (site_id, company, id);
create index if not exists leads_site_updated_idx on leads (site_id, updated_at, id);
create index if not exists leads_site_score_idx on leads (site_id, lead_score, id);
create index if not exists leads_site_status_idx on leads (site_id, status, created_at);
