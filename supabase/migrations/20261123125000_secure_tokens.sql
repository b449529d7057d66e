-- Secure tokens: secrets a site stores for its integrations, encrypted at rest.
--
-- Envelope encryption: each secret has its own random 256-bit data key. The value is sealed with
-- AES-256-GCM under that data key (`iv`, `ciphertext`, `tag`); the data key is sealed with
-- AES-256-GCM under a master key (`wrapped_key` = iv | sealed key | tag) named by `key_id` (a
-- fingerprint of the master key) and `key_version`. Both seals carry associated data binding the
-- site and the token id (the wrap also binds the master key id and version), so a row copied to
-- another id or site, or relabelled with another key version, fails to decrypt. Rotation re-wraps
-- `wrapped_key` only; the sealed value never changes.
create table if not exists secure_tokens (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  type text not null,
  identifier text not null,
  iv text not null,
  ciphertext text not null,
  tag text not null,
  wrapped_key text not null,
  key_id text not null,
  key_version integer not null,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  unique (site_id, identifier)
);
create index if not exists secure_tokens_site_idx on secure_tokens (site_id, created_at desc, id desc);
-- Rotation walks the rows not yet wrapped by the current master key.
create index if not exists secure_tokens_key_idx on secure_tokens (key_id, key_version);
alter table secure_tokens enable row level security;
drop policy if exists secure_tokens_tenant on secure_tokens;
create policy secure_tokens_tenant on secure_tokens
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every decrypt (refused ones included), creation and deletion of a site's secrets. `token_id`
-- is the id asked for (no foreign key: the audit outlives the secret).
create table if not exists secure_token_audit (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  token_id uuid,
  identifier text,
  action text not null check (action in ('create', 'delete', 'decrypt')),
  outcome text not null check (outcome in ('ok', 'not_found', 'rate_limited', 'integrity_failure', 'key_unavailable')),
  api_key_id uuid,
  user_id uuid,
  created_at timestamptz not null default now()
);
create index if not exists secure_token_audit_site_idx on secure_token_audit (site_id, created_at desc, id desc);
alter table secure_token_audit enable row level security;
drop policy if exists secure_token_audit_tenant on secure_token_audit;
create policy secure_token_audit_tenant on secure_token_audit
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
