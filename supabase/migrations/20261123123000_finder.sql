-- Finder: credits (balance, monthly spend, ledger), role queries and what ICP mining found.

-- One account per site. `balance` never goes below zero: a charge is one conditional UPDATE
-- (balance >= price and the month's spend + price within the cap), so concurrent charges
-- serialize on the row and cannot overspend. `period_month` ('YYYY-MM', UTC) is the month
-- `period_spent` counts; the first charge of a new month restarts it.
create table if not exists finder_credit_accounts (
  site_id uuid primary key references sites (id) on delete cascade,
  balance bigint not null default 0 check (balance >= 0),
  monthly_cap bigint check (monthly_cap is null or monthly_cap >= 0),
  period_month text not null default '',
  period_spent bigint not null default 0 check (period_spent >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table finder_credit_accounts enable row level security;
drop policy if exists finder_credit_accounts_tenant on finder_credit_accounts;
create policy finder_credit_accounts_tenant on finder_credit_accounts
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every movement of a site's credits: grant (+), charge (−), refund (+, of one charge).
create table if not exists finder_credit_ledger (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  kind text not null check (kind in ('grant', 'charge', 'refund')),
  call_type text,
  amount bigint not null,
  balance_after bigint not null,
  refund_of uuid references finder_credit_ledger (id) on delete cascade,
  workflow_id text,
  note text,
  created_at timestamptz not null default now()
);
create index if not exists finder_credit_ledger_site_idx on finder_credit_ledger (site_id, created_at desc, id desc);
create index if not exists finder_credit_ledger_workflow_idx on finder_credit_ledger (site_id, workflow_id) where workflow_id is not null;
-- A charge is refunded at most once.
create unique index if not exists finder_credit_ledger_refund_once on finder_credit_ledger (refund_of) where refund_of is not null;
alter table finder_credit_ledger enable row level security;
drop policy if exists finder_credit_ledger_tenant on finder_credit_ledger;
create policy finder_credit_ledger_tenant on finder_credit_ledger
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- A saved people search of a site, deduplicated by the hash of its normalised query within the
-- site (two sites never share a row). Mining progress lives on the row.
create table if not exists finder_role_queries (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null,
  query jsonb not null,
  query_hash text not null,
  total_targets integer not null check (total_targets >= 1),
  leads_created integer not null default 0 check (leads_created >= 0),
  pages_fetched integer not null default 0,
  next_page integer not null default 1,
  status text not null default 'pending'
    check (status in ('pending', 'mining', 'completed', 'exhausted', 'out_of_credits')),
  last_workflow_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (site_id, query_hash)
);
create index if not exists finder_role_queries_site_idx on finder_role_queries (site_id, updated_at desc, id desc);
alter table finder_role_queries enable row level security;
drop policy if exists finder_role_queries_tenant on finder_role_queries;
create policy finder_role_queries_tenant on finder_role_queries
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Segments a role query feeds (leads it mines go to the most recently linked one).
create table if not exists finder_role_query_segments (
  site_id uuid not null references sites (id) on delete cascade,
  role_query_id uuid not null references finder_role_queries (id) on delete cascade,
  segment_id uuid not null references segments (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (role_query_id, segment_id)
);
create index if not exists finder_role_query_segments_site_idx on finder_role_query_segments (site_id, role_query_id);
alter table finder_role_query_segments enable row level security;
drop policy if exists finder_role_query_segments_tenant on finder_role_query_segments;
create policy finder_role_query_segments_tenant on finder_role_query_segments
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Provider people already considered for a site, so mining never pays twice for one person and
-- never creates a second lead for them: `lead` (a lead was created), `duplicate` (the site had a
-- lead with that email), `no_email` (the provider knew no email).
create table if not exists finder_mined_people (
  site_id uuid not null references sites (id) on delete cascade,
  person_id text not null,
  role_query_id uuid references finder_role_queries (id) on delete set null,
  lead_id uuid references leads (id) on delete set null,
  outcome text not null check (outcome in ('lead', 'duplicate', 'no_email')),
  created_at timestamptz not null default now(),
  primary key (site_id, person_id)
);
alter table finder_mined_people enable row level security;
drop policy if exists finder_mined_people_tenant on finder_mined_people;
create policy finder_mined_people_tenant on finder_mined_people
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
