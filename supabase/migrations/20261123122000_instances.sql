-- Remote instances (browsers driven by robots), their logs and their plans.
--
-- An instance's `status` follows the state machine of lib/instances/states.ts:
--   uninstantiated | pending → starting → running ⇄ paused; running | paused | … → stopping → stopped;
--   a failed start or a lost browser → error; stopped and error may be started again.
-- `starting` and `stopping` are held while the browser opens or closes: a second operation on the
-- same instance in the meantime is refused (409) instead of racing it.
-- A paused instance keeps its browser state (cookies, storage, URL) in file storage under
-- `state_key`; `expires_at` is when a running instance stops by itself (resume's timeout_hours).

create table if not exists remote_instances (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  instance_type text not null default 'browser' check (instance_type in ('browser', 'ubuntu', 'windows')),
  status text not null default 'uninstantiated'
    check (status in ('uninstantiated', 'pending', 'starting', 'running', 'paused', 'stopping', 'stopped', 'error')),
  agent_id uuid,
  configuration jsonb not null default '{}'::jsonb,
  -- Values are secrets: sealed (AES-256-GCM, key derived from AUTH_SECRET); the API shows names only.
  environment_variables_sealed text,
  activity text,
  current_url text,
  state_key text,
  screenshot_key text,
  timeout_hours numeric(6, 2) not null default 1,
  started_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists remote_instances_site_idx on remote_instances (site_id, created_at desc, id desc);
create index if not exists remote_instances_site_status_idx on remote_instances (site_id, status, created_at desc);
create index if not exists remote_instances_expiry_idx on remote_instances (expires_at) where status = 'running';
alter table remote_instances enable row level security;
drop policy if exists remote_instances_tenant on remote_instances;
create policy remote_instances_tenant on remote_instances
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists instance_logs (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  instance_id uuid not null references remote_instances (id) on delete cascade,
  log_type text not null check (log_type in ('system', 'agent_action', 'user_action', 'tool_call', 'error')),
  level text not null default 'info' check (level in ('debug', 'info', 'warn', 'error')),
  message text not null,
  details jsonb not null default '{}'::jsonb,
  screenshot_key text,
  created_at timestamptz not null default now()
);
create index if not exists instance_logs_instance_idx on instance_logs (instance_id, created_at desc, id desc);
alter table instance_logs enable row level security;
drop policy if exists instance_logs_tenant on instance_logs;
create policy instance_logs_tenant on instance_logs
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists instance_plans (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  instance_id uuid not null references remote_instances (id) on delete cascade,
  title text not null,
  description text,
  plan_type text not null check (plan_type in ('objective', 'task', 'step')),
  status text not null default 'pending' check (status in ('pending', 'in_progress', 'completed', 'failed', 'cancelled')),
  priority integer not null default 0,
  instructions text,
  steps jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists instance_plans_instance_idx on instance_plans (instance_id, created_at desc, id desc);
alter table instance_plans enable row level security;
drop policy if exists instance_plans_tenant on instance_plans;
create policy instance_plans_tenant on instance_plans
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
