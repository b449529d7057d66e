-- Visitor tracking: visitors, their sessions and events, segment membership, uploaded files.
-- Session times are epoch milliseconds (bigint), as the API speaks them, so no conversion
-- happens on the ingestion path and the service's clock (injectable in tests) is the only clock.

create table if not exists visitors (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  -- Browser/device fingerprint sent by the client; null for anonymous one-off visitors.
  fingerprint text,
  lead_id uuid references leads (id) on delete set null,
  is_bot boolean not null default false,
  first_seen_at bigint not null,
  last_seen_at bigint not null
);
-- One visitor per fingerprint per site (nulls are distinct, so fingerprint-less visitors never merge).
create unique index if not exists visitors_site_fingerprint_key on visitors (site_id, fingerprint);
create index if not exists visitors_site_seen_idx on visitors (site_id, last_seen_at desc, id desc);
create index if not exists visitors_lead_idx on visitors (lead_id) where lead_id is not null;
alter table visitors enable row level security;
drop policy if exists visitors_tenant on visitors;
create policy visitors_tenant on visitors
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists visitor_sessions (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  visitor_id uuid not null references visitors (id) on delete cascade,
  fingerprint text,
  lead_id uuid references leads (id) on delete set null,
  previous_session_id uuid references visitor_sessions (id) on delete set null,
  -- active: open; closed: ended by the end route (stays readable); expired: idle 30 min or 24 h old.
  status text not null default 'active' check (status in ('active', 'closed', 'expired')),
  url text,
  current_url text,
  referrer text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  -- Server time of creation; the 24-hour maximum counts from here.
  created_at bigint not null,
  -- Client-reported start (defaults to created_at).
  started_at bigint not null,
  last_activity_at bigint not null,
  updated_at bigint not null,
  expires_at bigint not null,
  ended_at bigint,
  duration bigint check (duration is null or duration >= 0),
  page_views integer not null default 0 check (page_views >= 0),
  active_time bigint check (active_time is null or active_time >= 0),
  idle_time bigint check (idle_time is null or idle_time >= 0),
  exit_url text,
  exit_type text check (exit_type is null or exit_type in ('bounce', 'exit', 'timeout')),
  device jsonb,
  browser jsonb,
  location jsonb,
  performance jsonb,
  consent jsonb,
  custom_data jsonb,
  lead_data jsonb,
  is_bot boolean not null default false,
  -- Stored events; at most 1,000 per session.
  event_count integer not null default 0 check (event_count between 0 and 1000)
);
-- At most one open session per visitor: concurrent creates for one fingerprint cannot fork.
create unique index if not exists visitor_sessions_one_active_key on visitor_sessions (visitor_id) where status = 'active';
create index if not exists visitor_sessions_visitor_idx on visitor_sessions (visitor_id, started_at desc, id desc);
create index if not exists visitor_sessions_lead_idx on visitor_sessions (lead_id, started_at desc, id desc) where lead_id is not null;
create index if not exists visitor_sessions_site_idx on visitor_sessions (site_id, created_at desc);
alter table visitor_sessions enable row level security;
drop policy if exists visitor_sessions_tenant on visitor_sessions;
create policy visitor_sessions_tenant on visitor_sessions
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists session_events (
  id uuid primary key,
  site_id uuid not null references sites (id) on delete cascade,
  session_id uuid not null references visitor_sessions (id) on delete cascade,
  visitor_id uuid not null references visitors (id) on delete cascade,
  event_type text not null,
  event_name text,
  url text,
  -- Client-reported time of the event (defaults to the time it was received).
  "timestamp" bigint not null,
  properties jsonb,
  received_at bigint not null
);
create index if not exists session_events_session_idx on session_events (session_id, "timestamp", id);
create index if not exists session_events_site_idx on session_events (site_id, received_at desc);
alter table session_events enable row level security;
drop policy if exists session_events_tenant on session_events;
create policy session_events_tenant on session_events
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists visitor_segments (
  site_id uuid not null references sites (id) on delete cascade,
  visitor_id uuid not null references visitors (id) on delete cascade,
  segment_id uuid not null references segments (id) on delete cascade,
  added_at bigint not null,
  primary key (visitor_id, segment_id)
);
create index if not exists visitor_segments_segment_idx on visitor_segments (segment_id, added_at desc);
alter table visitor_segments enable row level security;
drop policy if exists visitor_segments_tenant on visitor_segments;
create policy visitor_segments_tenant on visitor_segments
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

create table if not exists visitor_uploads (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  visitor_id uuid references visitors (id) on delete set null,
  -- Caller's label for the file (e.g. avatar, attachment); free text.
  type text,
  file_name text not null,
  content_type text not null,
  size integer not null check (size >= 0),
  storage text not null check (storage in ('local', 'supabase')),
  storage_key text not null,
  created_at timestamptz not null default now()
);
create index if not exists visitor_uploads_site_idx on visitor_uploads (site_id, created_at desc);
alter table visitor_uploads enable row level security;
drop policy if exists visitor_uploads_tenant on visitor_uploads;
create policy visitor_uploads_tenant on visitor_uploads
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
