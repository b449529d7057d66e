-- A command's status change announces itself on the channel `command_changes` (payload: the
-- command's id) when it commits. The process running the command hears a cancellation (or any
-- other end written elsewhere: its deadline) and stops its model call at once; no process asks
-- the database again and again (lib/commands/changes.ts).
create or replace function announce_command_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('command_changes', new.id::text);
  return null;
end $$;

drop trigger if exists commands_announce_change on commands;
create trigger commands_announce_change
  after update of status on commands
  for each row when (old.status is distinct from new.status) execute function announce_command_change();
