-- Background work runs on one mechanism: the pg-boss queues in this database (schema `pgboss`,
-- created by pg-boss itself). The leases each feature kept on its own rows go.

-- A run is executed by one job at a time: the pg-boss job that holds it. The hold lasts while
-- that job is active in the queue (its worker keeps it so); a worker that dies loses its job to
-- the queue's expiry, and with it the run.
alter table workflow_runs drop column if exists lease_until;
alter table workflow_runs add column if not exists held_by uuid;

-- Commands: a running command whose process died is found by its deadline job, not by a lease.
drop index if exists commands_running_lease_idx;
alter table commands drop column if exists lease_until;

-- Webhook deliveries: each attempt is a job of the delivery queue; the row records the outcome.
drop index if exists webhook_deliveries_due_idx;
alter table webhook_deliveries drop column if exists lease_until;

-- Retention: old rows are pruned by a scheduled job in bounded batches, by these indexes.
create index if not exists workflow_runs_closed_idx on workflow_runs (close_time) where close_time is not null;
create index if not exists secure_token_audit_created_idx on secure_token_audit (created_at);
create index if not exists platform_audit_log_created_idx on platform_audit_log (created_at);
create index if not exists outbound_events_created_idx on outbound_events (created_at);
