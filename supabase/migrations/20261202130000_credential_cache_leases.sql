-- Processes that keep verified credentials (lib/keys/cache.ts) hold a lease here while they keep
-- them, and acknowledge each barrier a revoking request sends (lib/db/cache-coherence.ts): a request
-- that takes access away answers only once every process whose lease is live has seen its barrier,
-- or its lease has ended. `seen_barrier` is the highest barrier the process has seen; barriers are
-- numbered by `credential_cache_barriers`, taken by the barrier's own notification after the change
-- committed. Rows of processes that went away are removed an hour after their lease ended.

create table if not exists credential_cache_leases (
  instance_id uuid primary key,
  lease_until timestamptz not null,
  seen_barrier bigint not null default 0
);
alter table credential_cache_leases enable row level security;

create sequence if not exists credential_cache_barriers;
