-- Web processes keep the keys they verified (lib/keys/cache.ts). Every change that can alter what a
-- key lookup answers — a key revoked, expired, deleted or rescoped; its site's plan or limits changed;
-- the site deleted (its keys go with it) — announces itself on the channel `api_key_changes` when it
-- commits, so every process listening (on Postgres: each web process) forgets the keys it kept. One
-- notification per statement; a key's usage (last_used_at, last_status) is not such a change.
create or replace function announce_api_key_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('api_key_changes', '');
  return null;
end $$;

drop trigger if exists api_keys_announce_change on api_keys;
create trigger api_keys_announce_change
  after update of key_hash, site_id, scopes, expires_at, revoked_at or delete on api_keys
  for each statement execute function announce_api_key_change();

drop trigger if exists sites_announce_key_change on sites;
create trigger sites_announce_key_change
  after update of plan, rate_limit_per_minute, concurrency_limit or delete on sites
  for each statement execute function announce_api_key_change();
