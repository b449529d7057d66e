-- CRM records of a site: leads, segments and requirements (AI goals).
-- Field types the spec leaves open are fixed here and documented in the README and OpenAPI.

create table if not exists segments (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null,
  description text,
  audience text,
  size integer check (size is null or size >= 0),
  estimated_value numeric check (estimated_value is null or estimated_value >= 0),
  language text,
  is_active boolean not null default true,
  attributes jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists segments_site_idx on segments (site_id, created_at desc, id desc);
alter table segments enable row level security;
drop policy if exists segments_tenant on segments;
create policy segments_tenant on segments
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists leads (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null,
  -- Stored lower-case (enforced), so uniqueness per site is case-insensitive.
  email text not null check (email = lower(email)),
  status text not null default 'new' check (status in ('new', 'contacted', 'qualified', 'converted', 'lost')),
  phone text,
  position text,
  company text,
  notes text,
  origin text,
  segment_id uuid references segments (id) on delete set null,
  campaign_id uuid,
  assignee_id uuid,
  lead_score integer check (lead_score is null or lead_score between 0 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One lead per email per site.
create unique index if not exists leads_site_email_key on leads (site_id, email);
create index if not exists leads_site_created_idx on leads (site_id, created_at desc, id desc);
alter table leads enable row level security;
drop policy if exists leads_tenant on leads;
create policy leads_tenant on leads
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists requirements (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  title text not null,
  type text,
  priority text not null default 'medium' check (priority in ('high', 'medium', 'low')),
  status text not null default 'backlog'
    check (status in ('backlog', 'validated', 'in-progress', 'on-review', 'done', 'canceled')),
  completion_status text not null default 'pending' check (completion_status in ('pending', 'completed', 'rejected')),
  instructions text,
  budget integer check (budget is null or budget >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists requirements_site_idx on requirements (site_id, created_at desc, id desc);
alter table requirements enable row level security;
drop policy if exists requirements_tenant on requirements;
create policy requirements_tenant on requirements
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
