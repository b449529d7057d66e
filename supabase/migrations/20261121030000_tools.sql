-- CRM tool routes: lead search indexes and the visitor → lead link.

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

-- A visitor of a site identified as one of that site's leads (leads/identify). A visitor has at
-- most one lead per site; a lead may have many visitors (devices, browsers).
create table if not exists lead_visitors (
  site_id uuid not null references sites (id) on delete cascade,
  visitor_id uuid not null,
  lead_id uuid not null references leads (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (site_id, visitor_id)
);
create index if not exists lead_visitors_lead_idx on lead_visitors (lead_id);
alter table lead_visitors enable row level security;
drop policy if exists lead_visitors_tenant on lead_visitors;
create policy lead_visitors_tenant on lead_visitors
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
