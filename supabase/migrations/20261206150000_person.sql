-- A person in the CRM: notes on a lead, the history of its fields, erasure on request.

-- Notes written on a lead by a member (author_user_id) or through an API key (author_key_id).
create table if not exists lead_notes (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  lead_id uuid not null references leads (id) on delete cascade,
  author_user_id uuid references users (id) on delete set null,
  author_key_id uuid,
  body text not null check (char_length(body) between 1 and 10000),
  created_at timestamptz not null default now()
);
create index if not exists lead_notes_lead_idx on lead_notes (site_id, lead_id, created_at desc, id desc);
-- The foreign keys' own: a lead's or a user's deletion finds their rows.
create index if not exists lead_notes_lead_fk_idx on lead_notes (lead_id);
create index if not exists lead_notes_author_idx on lead_notes (author_user_id);
alter table lead_notes enable row level security;
drop policy if exists lead_notes_tenant on lead_notes;
create policy lead_notes_tenant on lead_notes
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every change of a lead's fields (status included), written by the update itself (trigger below),
-- whatever path changed it: the lead's timeline reads it.
create table if not exists lead_changes (
  id bigint generated always as identity primary key,
  site_id uuid not null references sites (id) on delete cascade,
  lead_id uuid not null references leads (id) on delete cascade,
  field text not null,
  old_value jsonb,
  new_value jsonb,
  changed_at timestamptz not null default now()
);
create index if not exists lead_changes_lead_idx on lead_changes (site_id, lead_id, changed_at desc, id desc);
create index if not exists lead_changes_lead_fk_idx on lead_changes (lead_id);
alter table lead_changes enable row level security;
drop policy if exists lead_changes_tenant on lead_changes;
create policy lead_changes_tenant on lead_changes
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Each column that differs after an update, bookkeeping columns aside (a column added later, such
-- as custom properties, is recorded too).
create or replace function record_lead_changes() returns trigger language plpgsql as $$
begin
  insert into lead_changes (site_id, lead_id, field, old_value, new_value, changed_at)
  select new.site_id, new.id, n.key, o.value, n.value, new.updated_at
    from jsonb_each(to_jsonb(new)) n
    join jsonb_each(to_jsonb(old)) o on o.key = n.key
   where n.key not in ('id', 'site_id', 'created_at', 'updated_at', 'search_text')
     and n.value is distinct from o.value;
  return new;
end $$;
drop trigger if exists leads_record_changes on leads;
create trigger leads_record_changes after update on leads
  for each row when (old is distinct from new) execute function record_lead_changes();

-- An erased person's address stays on the suppression list as a hash (reason `erased`), so they
-- are never mailed again while the address itself is gone.
alter table email_suppressions drop constraint if exists email_suppressions_reason_check;
alter table email_suppressions add constraint email_suppressions_reason_check
  check (reason in ('unsubscribed', 'bounced', 'manual', 'erased'));
