-- The processes holding robot browsers, and which one holds each instance's browser.
-- A process records itself in robot_holders when it claims a robot start and refreshes `seen_at`
-- while it lives (lib/robots/holder.ts); `remote_instances.holder_id` is the process whose claim
-- started the instance's browser. A starting or running instance whose holder has not been seen
-- for a while lost its browser with that process: the next start of its account marks it `error`
-- instead of counting it against the running-robot limits (lib/robots/slots.ts).

create table if not exists robot_holders (
  id uuid primary key,
  seen_at timestamptz not null default now()
);
alter table robot_holders enable row level security;

alter table remote_instances add column if not exists holder_id uuid;
