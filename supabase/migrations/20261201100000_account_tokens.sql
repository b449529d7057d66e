-- Accounts: a verified address, single-use tokens mailed to it (address verification, password
-- reset), and the sessions a user signed in with, so a session ends on the server at sign-out and
-- every session of an account ends at a password reset.

alter table users add column if not exists email_verified_at timestamptz;

-- Only the SHA-256 of a token is kept; the token itself exists in the mail alone. `email` is the
-- address the token was sent to: a verification applies to that address only.
create table if not exists account_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null,
  token_hash text not null,
  email text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  constraint account_tokens_purpose_check check (purpose in ('verify_email', 'reset_password'))
);
create unique index if not exists account_tokens_hash_key on account_tokens (token_hash);
create index if not exists account_tokens_user_idx on account_tokens (user_id, purpose);
create index if not exists account_tokens_expires_idx on account_tokens (expires_at);
alter table account_tokens enable row level security;
drop policy if exists account_tokens_self on account_tokens;
create policy account_tokens_self on account_tokens
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);

-- One row per session token issued (console cookie or POST /api/auth/token); a token is accepted
-- only while its row is not revoked.
create table if not exists user_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index if not exists user_sessions_user_idx on user_sessions (user_id);
create index if not exists user_sessions_expires_idx on user_sessions (expires_at);
alter table user_sessions enable row level security;
drop policy if exists user_sessions_self on user_sessions;
create policy user_sessions_self on user_sessions
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
