-- Workflow runs of the embedded engine (lib/workflows/engines/embedded). The job queue itself is
-- pg-boss's own schema (`pgboss`), created by pg-boss when the engine starts.

-- One row per run, as the logs show it (spec §2.10). `site_id` is the tenant column every
-- query filters on; the logs page is an index range of (site_id, start_time desc, workflow_id).
create table if not exists workflow_runs (
  run_id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites(id) on delete cascade,
  workflow_id text not null unique,
  type text not null,
  status text not null default 'RUNNING'
    check (status in ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT')),
  input jsonb not null default '{}'::jsonb,
  result jsonb,
  failure jsonb,
  idempotency_key text,
  start_time timestamptz not null default now(),
  close_time timestamptz,
  timeout_at timestamptz,
  -- The worker holding the run, until when (a crashed worker's lease runs out).
  lease_until timestamptz
);
create index if not exists workflow_runs_site_start_idx on workflow_runs (site_id, start_time desc, workflow_id desc);
create index if not exists workflow_runs_site_status_idx on workflow_runs (site_id, status, start_time desc);
create index if not exists workflow_runs_site_type_idx on workflow_runs (site_id, type, start_time desc);
create unique index if not exists workflow_runs_idempotency_key on workflow_runs (site_id, idempotency_key)
  where idempotency_key is not null;
alter table workflow_runs enable row level security;
drop policy if exists workflow_runs_tenant on workflow_runs;
create policy workflow_runs_tenant on workflow_runs
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Checkpoints: one row per completed step (activity call, timer, signal wait) of a run. On resume
-- a step found here is answered from `result` instead of being run again.
create table if not exists workflow_steps (
  run_id uuid not null references workflow_runs(run_id) on delete cascade,
  step integer not null,
  site_id uuid not null,
  kind text not null check (kind in ('activity', 'sleep', 'signal')),
  name text not null,
  -- Timers and signal waits: when the wait ends (set when the step is first reached).
  wake_at timestamptz,
  completed boolean not null default false,
  result jsonb,
  completed_at timestamptz,
  primary key (run_id, step)
);
alter table workflow_steps enable row level security;
drop policy if exists workflow_steps_tenant on workflow_steps;
create policy workflow_steps_tenant on workflow_steps
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Signals delivered to runs, consumed in arrival order by the step that waits for their name.
create table if not exists workflow_signals (
  id bigint generated always as identity primary key,
  run_id uuid not null references workflow_runs(run_id) on delete cascade,
  site_id uuid not null,
  name text not null,
  payload jsonb,
  received_at timestamptz not null default now(),
  consumed_step integer
);
create index if not exists workflow_signals_run_idx on workflow_signals (run_id, name, id);
alter table workflow_signals enable row level security;
drop policy if exists workflow_signals_tenant on workflow_signals;
create policy workflow_signals_tenant on workflow_signals
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Inbound change events received by the webhook workflow.
create table if not exists webhook_events (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites(id) on delete cascade,
  workflow_id text,
  event_type text,
  table_name text,
  payload jsonb not null default '{}'::jsonb,
  received_at timestamptz not null default now()
);
create index if not exists webhook_events_site_idx on webhook_events (site_id, received_at desc);
alter table webhook_events enable row level security;
drop policy if exists webhook_events_tenant on webhook_events;
create policy webhook_events_tenant on webhook_events
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
