-- Platform API for generated applications: apps, platform keys with capabilities, daily quotas per
-- capability, the audit log of every platform call, and transactional email (outbox and the
-- owner's verified test recipients).

-- A generated application of a site. Its tenant schema is `app_<short_id>`; the short id is
-- random lower-case base32, chosen once at creation and never changed.
create table if not exists platform_apps (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  name text not null,
  short_id text not null,
  created_at timestamptz not null default now(),
  constraint platform_apps_short_id_check check (short_id ~ '^[a-z2-7]{16}$')
);
create unique index if not exists platform_apps_short_id_key on platform_apps (short_id);
create index if not exists platform_apps_site_idx on platform_apps (site_id, created_at);
alter table platform_apps enable row level security;
drop policy if exists platform_apps_tenant on platform_apps;
create policy platform_apps_tenant on platform_apps
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Platform keys: bound to one app of one site. Only the SHA-256 of the key and its last four
-- characters are stored.
create table if not exists platform_keys (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  app_id uuid not null references platform_apps (id) on delete cascade,
  user_id uuid not null,
  name text not null,
  key_hash text not null,
  display_suffix text not null,
  capabilities text[] not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  constraint platform_keys_capabilities_check check (cardinality(capabilities) > 0)
);
create unique index if not exists platform_keys_hash_key on platform_keys (key_hash);
create index if not exists platform_keys_site_idx on platform_keys (site_id, created_at);
alter table platform_keys enable row level security;
drop policy if exists platform_keys_tenant on platform_keys;
create policy platform_keys_tenant on platform_keys
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Daily quota counters: one row per site, app, capability and UTC day, incremented by one
-- conditional statement (never above the limit, race-free under concurrent requests).
create table if not exists platform_quota_usage (
  site_id uuid not null references sites (id) on delete cascade,
  app_id uuid not null references platform_apps (id) on delete cascade,
  capability text not null,
  day date not null,
  used integer not null default 0,
  primary key (site_id, app_id, capability, day),
  constraint platform_quota_usage_used_check check (used >= 0)
);
alter table platform_quota_usage enable row level security;
drop policy if exists platform_quota_usage_tenant on platform_quota_usage;
create policy platform_quota_usage_tenant on platform_quota_usage
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every platform call whose key was recognised, refused ones included. Never request bodies.
create table if not exists platform_audit_log (
  id bigint generated always as identity primary key,
  site_id uuid not null references sites (id) on delete cascade,
  app_id uuid not null references platform_apps (id) on delete cascade,
  key_id uuid not null references platform_keys (id) on delete cascade,
  request_id text not null,
  method text not null,
  route text not null,
  capability text,
  status integer not null,
  error_code text,
  created_at timestamptz not null default now()
);
create index if not exists platform_audit_log_site_idx on platform_audit_log (site_id, created_at desc, id desc);
alter table platform_audit_log enable row level security;
drop policy if exists platform_audit_log_tenant on platform_audit_log;
create policy platform_audit_log_tenant on platform_audit_log
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Addresses of the site owner that proved they receive mail (a code sent to them was entered).
-- Platform keys with only `email.send.test-only` may send to these and nowhere else.
create table if not exists email_recipients (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  email text not null,
  code_hash text,
  code_expires_at timestamptz,
  failed_attempts integer not null default 0,
  codes_sent integer not null default 0,
  last_sent_at timestamptz,
  verified_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index if not exists email_recipients_site_email_key on email_recipients (site_id, email);
alter table email_recipients enable row level security;
drop policy if exists email_recipients_tenant on email_recipients;
create policy email_recipients_tenant on email_recipients
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every message the email port handled: the embedded outbox (nothing leaves the machine) and,
-- with SMTP configured, the record of what was handed to the SMTP server.
create table if not exists email_messages (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  app_id uuid references platform_apps (id) on delete set null,
  transport text not null,
  status text not null,
  from_address text not null,
  to_addresses text[] not null,
  subject text not null,
  text_body text,
  html_body text,
  provider_message_id text,
  created_at timestamptz not null default now(),
  constraint email_messages_transport_check check (transport in ('outbox', 'smtp')),
  constraint email_messages_status_check check (status in ('stored', 'sent', 'failed'))
);
create index if not exists email_messages_site_idx on email_messages (site_id, created_at desc, id desc);
alter table email_messages enable row level security;
drop policy if exists email_messages_tenant on email_messages;
create policy email_messages_tenant on email_messages
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
