-- Edge protection: plans with their rate limits, extra browser origins per site, key usage
-- reporting and retention.

-- The plan decides a site's API-key rate limits (Basic 60/min and 5 concurrent, Pro 300/min and
-- 20 concurrent). Enterprise sites carry their own values in the two limit columns.
alter table sites add column if not exists plan text not null default 'basic';
alter table sites add column if not exists rate_limit_per_minute integer;
alter table sites add column if not exists concurrency_limit integer;
alter table sites drop constraint if exists sites_plan_check;
alter table sites add constraint sites_plan_check check (
  plan in ('basic', 'pro', 'enterprise')
  and (rate_limit_per_minute is null or rate_limit_per_minute > 0)
  and (concurrency_limit is null or concurrency_limit > 0)
  and (plan <> 'enterprise' or (rate_limit_per_minute is not null and concurrency_limit is not null))
);

-- Browser origins allowed for a site's public tracking routes besides its own domain.
-- `origin` is scheme://host[:port], lower case, exactly as browsers send it.
create table if not exists site_origins (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  origin text not null,
  created_at timestamptz not null default now(),
  constraint site_origins_origin_check check (origin ~ '^https?://[a-z0-9.:\[\]-]+$')
);
create unique index if not exists site_origins_site_origin_key on site_origins (site_id, origin);
alter table site_origins enable row level security;
drop policy if exists site_origins_tenant on site_origins;
create policy site_origins_tenant on site_origins
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- The status of a key's latest request, kept next to last_used_at so it survives pruning.
alter table api_keys add column if not exists last_status integer;

-- Retention pruning deletes by age in small batches.
create index if not exists api_key_usage_created_idx on api_key_usage (created_at);

-- CORS preflights ask whether any site registered an Origin: by domain, or by extra origin.
create index if not exists sites_domain_idx on sites (domain);
create index if not exists site_origins_origin_idx on site_origins (origin);
