-- Outreach sequences: a named list of email steps per site, the leads enrolled in each, and one
-- row per step sent to a lead.
--
-- Steps live in the sequence row (jsonb, validated by lib/sequences/schema.ts when saved): they are
-- read and written as a whole, and a step that has gone out to anyone may not change (the API refuses).
-- An enrollment is a lead in a sequence, once (unique sequence, lead); its `next_step` and
-- `next_send_at` say what goes out next and when. A message row is written before its mail is sent
-- and is unique per (enrollment, step): a step reaches a lead at most once, whatever retries.

create table if not exists sequences (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null,
  status text not null default 'active' check (status in ('active', 'paused')),
  steps jsonb not null,
  -- {days: [1..7] (ISO, Monday = 1), start_hour, end_hour} in the site's time zone; null: any time.
  send_window jsonb,
  daily_cap integer check (daily_cap is null or daily_cap > 0),
  domain_per_minute integer check (domain_per_minute is null or domain_per_minute > 0),
  -- Lead statuses that end an enrollment besides reply, bounce and unsubscribe (always).
  stop_on_status text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists sequences_site_idx on sequences (site_id, created_at desc, id desc);
alter table sequences enable row level security;
drop policy if exists sequences_tenant on sequences;
create policy sequences_tenant on sequences
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists sequence_enrollments (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  sequence_id uuid not null references sequences (id) on delete cascade,
  lead_id uuid not null references leads (id) on delete cascade,
  email text not null,
  status text not null default 'active' check (status in ('active', 'completed', 'stopped')),
  stop_reason text check (stop_reason in ('replied', 'bounced', 'unsubscribed', 'removed', 'converted', 'lost')),
  -- Index (0-based) of the next step to send; equals the number of steps once completed.
  next_step integer not null default 0,
  next_send_at timestamptz,
  stopped_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (sequence_id, lead_id)
);
create index if not exists sequence_enrollments_site_idx on sequence_enrollments (site_id, sequence_id, status);
create index if not exists sequence_enrollments_lead_idx on sequence_enrollments (lead_id);
-- A bounce or an unsubscribe stops the running enrollments of one address of the site.
create index if not exists sequence_enrollments_address_idx on sequence_enrollments (site_id, lower(email)) where status = 'active';
alter table sequence_enrollments enable row level security;
drop policy if exists sequence_enrollments_tenant on sequence_enrollments;
create policy sequence_enrollments_tenant on sequence_enrollments
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists sequence_messages (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  sequence_id uuid not null references sequences (id) on delete cascade,
  enrollment_id uuid not null references sequence_enrollments (id) on delete cascade,
  step integer not null,
  -- The A/B variant of the step's subject that was sent (index into the step's subjects).
  variant integer not null default 0,
  email_message_id uuid references email_messages (id) on delete set null,
  status text not null default 'sending' check (status in ('sending', 'sent', 'failed', 'skipped')),
  sent_at timestamptz,
  opened_at timestamptz,
  clicked_at timestamptz,
  replied_at timestamptz,
  bounced_at timestamptz,
  unsubscribed_at timestamptz,
  created_at timestamptz not null default now(),
  unique (enrollment_id, step)
);
create index if not exists sequence_messages_sequence_idx on sequence_messages (sequence_id, step);
create index if not exists sequence_messages_site_idx on sequence_messages (site_id, created_at);
create index if not exists sequence_messages_email_idx on sequence_messages (email_message_id) where email_message_id is not null;
alter table sequence_messages enable row level security;
drop policy if exists sequence_messages_tenant on sequence_messages;
create policy sequence_messages_tenant on sequence_messages
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
