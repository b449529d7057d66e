-- A new instance log line announces itself on the channel `instance_logs` (payload: the instance's
-- id) when it commits: a client following a robot's run hears each line as it is written
-- (lib/robots/assistant.ts) instead of asking again and again.
create or replace function announce_instance_log() returns trigger language plpgsql as $$
begin
  perform pg_notify('instance_logs', new.instance_id::text);
  return null;
end $$;

drop trigger if exists instance_logs_announce on instance_logs;
create trigger instance_logs_announce
  after insert on instance_logs
  for each row execute function announce_instance_log();
