-- Custom lead properties and CSV imports.
--
-- A site defines its own lead fields ("plan", "deal size"): one row per property in
-- lead_properties (key unique per site, type text | number | date | choice with its options).
-- Each lead keeps its values in leads.custom_properties, a JSON object keyed by property key,
-- validated against the definitions by lib/leads/properties.ts when written. The GIN index serves
-- the list's `property.<key>=value` filters (containment, `@>`).
--
-- A CSV import is a row of lead_imports: the file is checked as a whole before anything is
-- written, then its rows are written in batches, each batch in the transaction that advances
-- `processed_rows` and the counts, so a worker that dies mid-import resumes exactly where the last
-- batch committed. The validated rows wait in `pending_rows` until the import completes.

alter table leads add column if not exists custom_properties jsonb not null default '{}'::jsonb;
create index if not exists leads_custom_properties_idx on leads using gin (custom_properties jsonb_path_ops) with (fastupdate = off);

create table if not exists lead_properties (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  key text not null check (key ~ '^[a-z][a-z0-9_]{0,39}$'),
  label text not null,
  type text not null check (type in ('text', 'number', 'date', 'choice')),
  options jsonb not null default '[]'::jsonb,
  position integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (site_id, key)
);
alter table lead_properties enable row level security;
drop policy if exists lead_properties_tenant on lead_properties;
create policy lead_properties_tenant on lead_properties
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists lead_imports (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  file_name text,
  status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed')),
  total_rows integer not null default 0,
  processed_rows integer not null default 0,
  created integer not null default 0,
  updated integer not null default 0,
  skipped integer not null default 0,
  errors jsonb not null default '[]'::jsonb,
  pending_rows jsonb,
  failure text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz
);
create index if not exists lead_imports_site_idx on lead_imports (site_id, created_at desc);
alter table lead_imports enable row level security;
drop policy if exists lead_imports_tenant on lead_imports;
create policy lead_imports_tenant on lead_imports
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
