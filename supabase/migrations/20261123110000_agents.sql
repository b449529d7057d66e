-- Agents: commands that really run, and the conversations they belong to.
--
-- A command is the unit of agent work and its own durable queue: `pending` rows are claimed by a
-- worker (`for update skip locked`), which sets `running` with a lease it keeps renewing while it
-- works. A `running` row whose lease has expired was held by a process that died; it is marked
-- `failed` ("interrupted") instead of staying `running` forever.
-- Lifecycle: pending → running → completed | failed; pending or running → cancelled.

create table if not exists conversations (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  agent text not null,
  title text not null,
  lead_id uuid,
  visitor_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists conversations_site_idx on conversations (site_id, updated_at desc, id desc);
alter table conversations enable row level security;
drop policy if exists conversations_tenant on conversations;
create policy conversations_tenant on conversations
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists conversation_messages (
  id uuid primary key default gen_random_uuid(),
  -- Total order of messages within a conversation (several may share a timestamp).
  seq bigint generated always as identity,
  site_id uuid not null references sites (id) on delete cascade,
  conversation_id uuid not null references conversations (id) on delete cascade,
  command_id uuid,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  tool_calls jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now()
);
create index if not exists conversation_messages_conversation_idx on conversation_messages (conversation_id, seq);
alter table conversation_messages enable row level security;
drop policy if exists conversation_messages_tenant on conversation_messages;
create policy conversation_messages_tenant on conversation_messages
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

alter table commands add column if not exists agent text not null default 'cmo';
alter table commands add column if not exists conversation_id uuid references conversations (id) on delete set null;
-- The API key that asked, and its scopes at that moment: the agent's tool set is decided by them.
alter table commands add column if not exists key_id uuid;
alter table commands add column if not exists key_scopes text[] not null default '{}';
alter table commands add column if not exists reply text;
alter table commands add column if not exists tool_calls jsonb not null default '[]'::jsonb;
alter table commands add column if not exists usage jsonb;
alter table commands add column if not exists error jsonb;
alter table commands add column if not exists lease_until timestamptz;
alter table commands add column if not exists started_at timestamptz;
alter table commands add column if not exists finished_at timestamptz;
alter table commands drop column if exists result;

-- Commands created before they were executed were left `processing`; they are queued now and run
-- like any new command (the scopes of the key that created them are unknown: read tools only).
update commands set status = 'pending', key_scopes = '{read}' where status = 'processing';
alter table commands alter column status set default 'pending';
alter table commands drop constraint if exists commands_status_check;
alter table commands add constraint commands_status_check
  check (status in ('pending', 'running', 'completed', 'failed', 'cancelled'));

-- The queue's scans: the oldest pending command, and running commands by lease.
create index if not exists commands_pending_idx on commands (created_at) where status = 'pending';
create index if not exists commands_running_lease_idx on commands (lease_until) where status = 'running';
