-- Generated apps' own schemas (`app_<short id>`) and the migrations applied to them.
--
-- A schema belongs to one site: the first migration claims it, another site is refused. Each
-- schema has a NOLOGIN role (`<schema>_migrator`) that may only use and create in that schema;
-- migrations run as that role (SET LOCAL ROLE) inside one transaction (lib/app-schema).
create table if not exists app_schemas (
  name text primary key check (name ~ '^app_[a-z0-9_]{1,48}$'),
  site_id uuid not null references sites (id) on delete cascade,
  role_name text not null,
  created_at timestamptz not null default now()
);
create index if not exists app_schemas_site_idx on app_schemas (site_id);
alter table app_schemas enable row level security;
drop policy if exists app_schemas_tenant on app_schemas;
create policy app_schemas_tenant on app_schemas
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Applied migrations: a name is applied once; the same name with other SQL is a conflict.
create table if not exists app_schema_migrations (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  app_schema text not null references app_schemas (name) on delete cascade,
  name text not null,
  checksum text not null,
  statements integer not null,
  applied_at timestamptz not null default now(),
  unique (app_schema, name)
);
create index if not exists app_schema_migrations_site_idx on app_schema_migrations (site_id, app_schema, applied_at);
alter table app_schema_migrations enable row level security;
drop policy if exists app_schema_migrations_tenant on app_schema_migrations;
create policy app_schema_migrations_tenant on app_schema_migrations
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
