-- Idempotency keys of runs started on the Temporal engine (lib/workflows/engines/temporal): a
-- start retried with the same key returns the run the first one started. The runs themselves
-- live in the Temporal cluster.
create table if not exists temporal_start_keys (
  site_id uuid not null references sites(id) on delete cascade,
  idempotency_key text not null,
  workflow_id text not null,
  -- Set once the cluster accepted the start.
  run_id text,
  created_at timestamptz not null default now(),
  primary key (site_id, idempotency_key)
);
alter table temporal_start_keys enable row level security;
drop policy if exists temporal_start_keys_tenant on temporal_start_keys;
create policy temporal_start_keys_tenant on temporal_start_keys
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
