-- Sequences: open and click tracking, and enrollments that failed for good.
--
-- `tracking` (default on) makes a sequence's messages carry an open pixel (HTML steps only) and
-- signed redirect links (lib/sequences/tracking.ts). A message counts as opened once, however many
-- times its pixel loads (image proxies and prefetchers load it again): `opened_at` / `clicked_at` keep
-- the first time, `opens` / `clicks` every load, for the curious.
-- An enrollment whose step could not be sent after every retry ends `failed`, the reason in `failure`.
alter table sequences add column if not exists tracking boolean not null default true;

alter table sequence_messages add column if not exists opens integer not null default 0;
alter table sequence_messages add column if not exists clicks integer not null default 0;

alter table sequence_enrollments add column if not exists failure text;
alter table sequence_enrollments drop constraint if exists sequence_enrollments_status_check;
alter table sequence_enrollments add constraint sequence_enrollments_status_check
  check (status in ('active', 'completed', 'stopped', 'failed'));
