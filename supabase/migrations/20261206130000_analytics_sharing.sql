-- Shared read-only dashboards and chart annotations of a site's analytics.
--
-- A shared link is a random token in a public URL (/share/<token>) showing the site's Overview read
-- only. Only its SHA-256 is kept (the URL is shown once, when the link is made); an optional password
-- is kept as a password hash. Deleting the row revokes the link: its URL answers 404 from then on.
create table if not exists analytics_shares (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  label text not null default '',
  token_hash text not null unique,
  password_hash text,
  created_at timestamptz not null default now()
);
create index if not exists analytics_shares_site_idx on analytics_shares (site_id, created_at desc, id desc);
alter table analytics_shares enable row level security;
drop policy if exists analytics_shares_tenant on analytics_shares;
create policy analytics_shares_tenant on analytics_shares
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- A note on a day of the site's charts ("launched the newsletter"), shown as a marker on that day.
create table if not exists analytics_annotations (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  day date not null,
  text text not null check (char_length(text) between 1 and 280),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists analytics_annotations_site_idx on analytics_annotations (site_id, day, created_at, id);
alter table analytics_annotations enable row level security;
drop policy if exists analytics_annotations_tenant on analytics_annotations;
create policy analytics_annotations_tenant on analytics_annotations
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
