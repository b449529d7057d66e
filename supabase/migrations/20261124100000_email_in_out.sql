-- Email in and out: the sender identity of each site, its suppression list, its IMAP mailbox
-- (the password is a secure token of the site, never stored here), and the email log widened to
-- hold inbound messages and the links of each message to its lead, run and conversation.

-- Who a site's messages come from. Without a row: EMAIL_FROM's address with the site's name.
create table if not exists email_senders (
  site_id uuid primary key references sites (id) on delete cascade,
  from_address text,
  from_name text,
  reply_to text,
  updated_at timestamptz not null default now()
);
alter table email_senders enable row level security;
drop policy if exists email_senders_tenant on email_senders;
create policy email_senders_tenant on email_senders
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Addresses that opted out (one-click unsubscribe) or bounced: never mailed again by the site.
create table if not exists email_suppressions (
  site_id uuid not null references sites (id) on delete cascade,
  email text not null,
  reason text not null check (reason in ('unsubscribed', 'bounced', 'manual')),
  created_at timestamptz not null default now(),
  primary key (site_id, email)
);
alter table email_suppressions enable row level security;
drop policy if exists email_suppressions_tenant on email_suppressions;
create policy email_suppressions_tenant on email_suppressions
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- The site's mailbox over IMAP and how far its sync got: messages above `last_uid` of the folder
-- generation `uid_validity` are new (a new generation starts over).
create table if not exists email_mailboxes (
  site_id uuid primary key references sites (id) on delete cascade,
  host text not null,
  port integer not null check (port between 1 and 65535),
  tls boolean not null,
  username text not null,
  folder text not null default 'INBOX',
  -- Deleting the password (a secure token of the site) removes the mailbox with it.
  secret_id uuid not null references secure_tokens (id) on delete cascade,
  uid_validity bigint,
  last_uid bigint not null default 0,
  last_sync_at timestamptz,
  last_error_code text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table email_mailboxes enable row level security;
drop policy if exists email_mailboxes_tenant on email_mailboxes;
create policy email_mailboxes_tenant on email_mailboxes
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

alter table email_messages add column if not exists direction text not null default 'outbound';
alter table email_messages add column if not exists message_id text;
alter table email_messages add column if not exists in_reply_to text;
alter table email_messages add column if not exists lead_id uuid references leads (id) on delete set null;
alter table email_messages add column if not exists workflow_id text;
alter table email_messages add column if not exists conversation_id uuid;
alter table email_messages add column if not exists command_id uuid;
alter table email_messages add column if not exists kind text;
-- `<uid_validity>:<uid>` of an inbound message in the site's mailbox: a message is stored once.
alter table email_messages add column if not exists mailbox_key text;
alter table email_messages drop constraint if exists email_messages_transport_check;
alter table email_messages add constraint email_messages_transport_check check (transport in ('outbox', 'smtp', 'imap'));
alter table email_messages drop constraint if exists email_messages_status_check;
alter table email_messages add constraint email_messages_status_check check (status in ('stored', 'sent', 'failed', 'received'));
alter table email_messages drop constraint if exists email_messages_direction_check;
alter table email_messages add constraint email_messages_direction_check check (direction in ('outbound', 'inbound'));
alter table email_messages drop constraint if exists email_messages_kind_check;
alter table email_messages add constraint email_messages_kind_check check (kind is null or kind in ('reply', 'message', 'bounce', 'auto_reply'));
create unique index if not exists email_messages_mailbox_key_idx on email_messages (site_id, mailbox_key) where mailbox_key is not null;
-- Threading: an inbound In-Reply-To / References is looked up among the site's Message-IDs.
create index if not exists email_messages_message_id_idx on email_messages (site_id, message_id) where message_id is not null;
-- A lead's email history.
create index if not exists email_messages_lead_idx on email_messages (site_id, lead_id, created_at desc) where lead_id is not null;
