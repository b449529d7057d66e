-- Foundation: users, sites, API keys and their usage, site commands.
-- Row-level security is enabled on every table. The service connects as the table owner and
-- enforces tenancy in its repositories; the policies below restrict any other role (for example
-- Supabase's anon/authenticated roles, or a reporting role) to the site named by the
-- `app.site_id` setting, so exposing these tables through another client never leaks tenants.

create table if not exists users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  name text,
  password_hash text not null,
  created_at timestamptz not null default now()
);
create unique index if not exists users_email_key on users (lower(email));
alter table users enable row level security;
drop policy if exists users_self on users;
create policy users_self on users
  using (id = nullif(current_setting('app.user_id', true), '')::uuid);

create table if not exists sites (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references users (id) on delete cascade,
  name text not null,
  domain text,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists sites_owner_idx on sites (owner_id, created_at);
alter table sites enable row level security;
drop policy if exists sites_tenant on sites;
create policy sites_tenant on sites
  using (id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists api_keys (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  prefix text not null,
  -- SHA-256 of the full key, hex. The key itself is never stored.
  key_hash text not null,
  -- Last characters of the key, shown in lists so an owner can tell keys apart.
  display_suffix text not null,
  scopes text[] not null,
  metadata jsonb not null default '{}'::jsonb,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  constraint api_keys_scopes_check check (scopes <@ array['read', 'write']::text[] and cardinality(scopes) > 0)
);
create unique index if not exists api_keys_hash_key on api_keys (key_hash);
create index if not exists api_keys_site_idx on api_keys (site_id, created_at);
alter table api_keys enable row level security;
drop policy if exists api_keys_tenant on api_keys;
create policy api_keys_tenant on api_keys
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists api_key_usage (
  id bigint generated always as identity primary key,
  key_id uuid not null references api_keys (id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  method text not null,
  route text not null,
  status integer not null,
  created_at timestamptz not null default now()
);
create index if not exists api_key_usage_key_idx on api_key_usage (key_id, created_at);
create index if not exists api_key_usage_site_idx on api_key_usage (site_id, created_at);
alter table api_key_usage enable row level security;
drop policy if exists api_key_usage_tenant on api_key_usage;
create policy api_key_usage_tenant on api_key_usage
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists commands (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  task text not null,
  description text not null,
  parameters jsonb not null default '{}'::jsonb,
  status text not null default 'processing',
  result jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists commands_site_idx on commands (site_id, created_at desc, id desc);
alter table commands enable row level security;
drop policy if exists commands_tenant on commands;
create policy commands_tenant on commands
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
