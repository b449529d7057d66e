-- Events and webhooks.
--
-- Outbound: a site registers endpoints (URL, the event types it wants, a signing secret kept
-- encrypted). When something happens (a run ends, a lead is created or changed, a visitor
-- session ends) the event row and one delivery row per subscribed endpoint are written in the
-- same transaction as the change itself (the outbox): nothing is lost if the process dies right
-- after the commit. The delivery row is its own durable queue entry: a worker claims due rows
-- (`for update skip locked`) under a lease, POSTs the signed event, records the attempt and sets
-- the next attempt (backoff with jitter) or the final state. A row whose lease ran out was held
-- by a worker that died: it is claimed again and the same event (same webhook-id) is re-sent.
--
-- Inbound: subscriptions map a table and change types to a catalog workflow started when
-- POST /api/workflow/webhook receives a matching database change event.

create table if not exists webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  url text not null,
  description text,
  events text[] not null,
  active boolean not null default true,
  -- AES-256-GCM under a key derived from the server secret; never stored in clear.
  secret_encrypted text not null,
  -- After a rotation the previous secret also signs, until previous_secret_expires_at.
  previous_secret_encrypted text,
  previous_secret_expires_at timestamptz,
  status text not null default 'healthy' check (status in ('healthy', 'failing')),
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists webhook_endpoints_site_idx on webhook_endpoints (site_id, created_at desc, id desc);
alter table webhook_endpoints enable row level security;
drop policy if exists webhook_endpoints_tenant on webhook_endpoints;
create policy webhook_endpoints_tenant on webhook_endpoints
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists outbound_events (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  type text not null,
  data jsonb not null,
  -- What the event is about, once (e.g. `run:<run id>`): an engine that reports a run's end twice
  -- records one event.
  dedupe_key text,
  created_at timestamptz not null default now()
);
create unique index if not exists outbound_events_dedupe_idx on outbound_events (site_id, dedupe_key);
create index if not exists outbound_events_site_idx on outbound_events (site_id, created_at desc);
alter table outbound_events enable row level security;
drop policy if exists outbound_events_tenant on outbound_events;
create policy outbound_events_tenant on outbound_events
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  event_id uuid not null references outbound_events (id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  lease_until timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index if not exists webhook_deliveries_endpoint_idx on webhook_deliveries (site_id, endpoint_id, created_at desc);
alter table webhook_deliveries enable row level security;
drop policy if exists webhook_deliveries_tenant on webhook_deliveries;
create policy webhook_deliveries_tenant on webhook_deliveries
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists webhook_attempts (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  duration_ms integer not null,
  status_code integer,
  error text,
  response_body text
);
create index if not exists webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt);
alter table webhook_attempts enable row level security;
drop policy if exists webhook_attempts_tenant on webhook_attempts;
create policy webhook_attempts_tenant on webhook_attempts
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists event_subscriptions (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  table_name text not null,
  event_types text[] not null,
  workflow text not null,
  -- Fixed fields of the started workflow's body, and body fields taken from the changed record.
  input jsonb not null default '{}'::jsonb,
  record_fields jsonb not null default '{}'::jsonb,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists event_subscriptions_site_idx on event_subscriptions (site_id, table_name);
alter table event_subscriptions enable row level security;
drop policy if exists event_subscriptions_tenant on event_subscriptions;
create policy event_subscriptions_tenant on event_subscriptions
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
