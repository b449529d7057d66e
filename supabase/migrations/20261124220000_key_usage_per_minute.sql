-- Key usage counted per key, minute, method, route and status: a row per combination and minute,
-- `requests` the number of requests it stands for. A group of usage entries is one upsert of a
-- row per combination (lib/keys/usage.ts) instead of a row per request, so recording usage costs
-- the database about the same at any request rate, and the per-day and per-site sums read
-- minutes, not requests. The rows recorded so far are folded into their minutes.
create table api_key_usage_minutes (
  id bigint generated always as identity primary key,
  key_id uuid not null references api_keys (id) on delete cascade,
  site_id uuid not null references sites (id) on delete cascade,
  method text not null,
  route text not null,
  status integer not null,
  -- The start of the minute (UTC) the requests were served in.
  created_at timestamptz not null,
  requests integer not null default 1 check (requests > 0)
);
insert into api_key_usage_minutes (key_id, site_id, method, route, status, created_at, requests)
  select key_id, site_id, method, route, status, date_trunc('minute', created_at at time zone 'UTC') at time zone 'UTC', count(*)::int
    from api_key_usage
   group by key_id, site_id, method, route, status, date_trunc('minute', created_at at time zone 'UTC');
drop table api_key_usage;
alter table api_key_usage_minutes rename to api_key_usage;
alter sequence api_key_usage_minutes_id_seq rename to api_key_usage_id_seq;
create unique index api_key_usage_minute_key on api_key_usage (key_id, created_at, method, route, status);
create index api_key_usage_site_idx on api_key_usage (site_id, created_at);
create index api_key_usage_created_idx on api_key_usage (created_at);
alter table api_key_usage enable row level security;
create policy api_key_usage_tenant on api_key_usage
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
