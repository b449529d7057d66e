-- Two-factor sign-in (TOTP), the devices and last use of sessions, and the account audit log.

-- One row per account that set up a second factor: the TOTP secret sealed under the server secret
-- (never stored in the clear), pending until a first code confirms it (`enabled_at`). `last_step`
-- is the time step of the last code accepted: a code of that step or an earlier one is refused,
-- so a code works once.
create table if not exists user_two_factor (
  user_id uuid primary key references users (id) on delete cascade,
  secret_sealed text not null,
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz not null default now()
);
alter table user_two_factor enable row level security;
drop policy if exists user_two_factor_self on user_two_factor;
create policy user_two_factor_self on user_two_factor
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);

-- Ten single-use recovery codes per account with a second factor; only their SHA-256 is kept.
create table if not exists user_recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index if not exists user_recovery_codes_user_hash_key on user_recovery_codes (user_id, code_hash);
alter table user_recovery_codes enable row level security;
drop policy if exists user_recovery_codes_self on user_recovery_codes;
create policy user_recovery_codes_self on user_recovery_codes
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);

-- What the account security page shows of a session: the device it was signed in from and when it
-- was last used (written at most once a minute per session).
alter table user_sessions add column if not exists user_agent text;
alter table user_sessions add column if not exists ip text;
alter table user_sessions add column if not exists last_used_at timestamptz;

-- The account audit log: sign-ins, failures, password and second-factor changes, sessions ended,
-- and (for a site's members) invitations and role changes. `site_id` is set for what happened on a
-- site. `detail` holds small facts (a session id, a role), never a secret, code or password. The
-- id grows with each entry: newest first is `id desc`, even for entries of the same millisecond.
create table if not exists account_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references users (id) on delete cascade,
  site_id uuid references sites (id) on delete cascade,
  kind text not null,
  ip text,
  user_agent text,
  detail jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  constraint account_events_kind_check check (kind ~ '^[a-z0-9_]{1,64}$')
);
create index if not exists account_events_user_idx on account_events (user_id, id desc);
create index if not exists account_events_site_idx on account_events (site_id, id desc) where site_id is not null;
create index if not exists account_events_created_idx on account_events (created_at);
alter table account_events enable row level security;
drop policy if exists account_events_self on account_events;
create policy account_events_self on account_events
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
