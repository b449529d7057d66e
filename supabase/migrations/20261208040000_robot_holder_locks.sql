-- A process holding robot browsers is alive while it holds its session advisory lock (named by its
-- holder id; lib/robots/holder.ts, lib/db/session-locks.ts): the lock ends with the process's
-- database session, so no table of sightings refreshed by a timer is needed any more.
-- `remote_instances.holder_id` stays: it names the process whose lock keeps the browser counted.
-- Instances of holders recorded before this change hold no lock: the next start of their account
-- marks them `error` ("Browser lost"), as after any restart.
drop table if exists robot_holders;
