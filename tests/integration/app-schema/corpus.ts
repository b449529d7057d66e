/**
 * SQL a generated app might send as a migration. `ESCAPES` must all be refused (each tries to
 * leave the app schema, raise its rights, or skip row level security); `LEGITIMATE` must all be
 * applied, in order, to one schema. `{s}` is the app schema's name. A table `notes` exists
 * (with row level security and a policy) when the escapes run.
 */
export const LEGITIMATE: [name: string, sql: string][] = [
  [
    '001_notes',
    `create table notes (
       id uuid primary key default gen_random_uuid(),
       owner text not null,
       body text not null default '',
       created_at timestamptz not null default now()
     );
     alter table notes enable row level security;
     create policy notes_owner on notes using (owner = current_setting('app.user_id', true));`,
  ],
  [
    '002_index_and_comment',
    `create index notes_owner_idx on notes (owner, created_at desc);\ncomment on table notes is 'Notes of the app''s users';`,
  ],
  ['003_columns', `alter table notes add column title text check (char_length(title) <= 200);\nalter table notes alter column body set not null;`],
  ['004_enum', `create type note_state as enum ('draft', 'published');\nalter table notes add column state note_state not null default 'draft';`],
  [
    '005_tags',
    `create table tags (
       id bigint generated always as identity primary key,
       note_id uuid not null references notes (id) on delete cascade,
       label text not null,
       unique (note_id, label)
     );
     alter table tags enable row level security;
     alter table tags force row level security;
     create policy tags_all on tags for all to public using (exists (select 1 from notes n where n.id = note_id)) with check (true);`,
  ],
  ['006_view', `create view published_notes with (security_invoker = true) as select id, title, created_at from notes where state = 'published';`],
  [
    '007_dollar_quotes',
    `create table "Events" (id serial primary key, payload jsonb not null default '{}'::jsonb, kind text not null default $$page;view$$);
     alter table "Events" enable row level security;
     create policy events_read on "Events" for select using (jsonb_typeof(payload) = 'object');`,
  ],
  [
    '008_rename_and_unique',
    `alter table tags rename column label to name;\nalter policy tags_all on tags using (true);\ncreate unique index tags_lower on tags (lower(name));`,
  ],
  [
    '009_qualified_with_own_schema',
    `create table {s}.counters (k text primary key, n integer not null default 0);\nalter table {s}.counters enable row level security;\ncreate policy counters_all on {s}.counters using (true);`,
  ],
  ['010_replace_view', `drop view published_notes;\ncreate view published_notes with (security_invoker) as select id from notes;`],
  [
    '011_comments',
    `-- a comment; with a semicolon\n/* a block ; comment /* nested */ */\ncreate sequence invoice_numbers start 1000;\ncomment on column notes.title is 'Shown in lists';`,
  ],
  ['012_enum_value', `alter type note_state add value 'archived';`],
  ['013_drop', `create index notes_created_idx on notes (created_at);\ndrop index notes_created_idx;\nalter table notes drop column title;`],
];

const secured = (table: string) => `alter table ${table} enable row level security; create policy ${table}_p on ${table} using (true);`;

export const ESCAPES: string[] = [
  // Other schemas
  'create table public.x (id int)',
  'create table "public".x (id int)',
  'create table app_someoneelse.x (id int)',
  'create table pg_temp.x (id int)',
  'create table pg_catalog.x (id int)',
  `create table x (id int); ${secured('x')} create table public.y (a int);`,
  'alter table public.sites add column x int',
  'drop table public.sites',
  'comment on table public.sites is $$x$$',
  'comment on column public.sites.name is $$x$$',
  'create index i on public.sites (id)',
  'create policy p on public.sites using (true)',
  `create table x (id uuid references public.sites (id)); ${secured('x')}`,
  `create table x (like public.api_keys); ${secured('x')}`,
  `create table x () inherits (public.sites); ${secured('x')}`,
  'create sequence s owned by public.sites.name',
  "create type public.t as enum ('a')",
  'create schema evil',
  'alter table notes set schema public',
  'create table x as select * from public.api_keys',
  // System catalogs
  'select * from pg_authid',
  'create view v with (security_invoker = true) as select * from pg_authid',
  'create view v with (security_invoker = true) as select rolname from pg_roles',
  'create view v with (security_invoker = true) as select * from public.api_keys',
  'create view v with (security_invoker = true) as select * from information_schema.tables',
  `create table x (a regclass default 'pg_authid'); ${secured('x')}`,
  "create view v with (security_invoker = true) as select 'public.api_keys'::regclass as r",
  'create policy p2 on notes using (exists (select 1 from public.api_keys))',
  'create policy p2 on notes using (exists (select 1 from pg_catalog.pg_user))',
  'create view v with (security_invoker = true) as select * from notes tablesample public.sampler (10)',
  'create view v with (security_invoker = true) as select * from generate_series(1, 10)',
  "create table x (a text default current_setting('data_directory') collate public.c); " +
    'alter table x enable row level security; create policy x_p on x using (true);',
  // Functions and SECURITY DEFINER
  'create function f() returns int language sql security definer as $$ select 1 $$',
  'create function f() returns int language sql as $$ select 1 $$',
  'create function f() returns int language plpython3u as $$ return 1 $$',
  'create or replace function f() returns trigger language plpgsql as $$ begin return new; end $$',
  'create procedure p() language sql as $$ select 1 $$',
  'create trigger t before insert on notes for each row execute function public.f()',
  `create table x (id int default pg_sleep(1)::text::int); ${secured('x')}`,
  "create index i on notes ((pg_read_file('/etc/passwd')))",
  `create table x (a text check (a <> public.secret())); ${secured('x')}`,
  `create table x (a text generated always as (inet_server_addr()::text) stored); ${secured('x')}`,
  "select set_config('search_path', 'public', true)",
  "select pg_catalog.set_config('role', 'postgres', false)",
  // search_path, SET, roles, grants
  'set search_path = public',
  'set local search_path to public, pg_catalog',
  'reset search_path',
  'set role postgres',
  'set session authorization postgres',
  'reset role',
  'discard all',
  'grant all on notes to public',
  'grant select on all tables in schema public to public',
  'revoke all on notes from public',
  'create role evil login superuser',
  'alter role current_user superuser',
  'grant postgres to current_user',
  'alter default privileges grant all on tables to public',
  'alter table notes owner to postgres',
  'create policy p2 on notes to postgres using (true)',
  // DO, COPY, extensions, ALTER SYSTEM, others
  "do $$ begin execute 'create table public.x (a int)'; end $$",
  'do language plpgsql $x$ begin perform 1; end $x$',
  "copy notes from program 'id'",
  "copy notes to '/tmp/notes'",
  'copy (select 1) to stdout',
  'create extension dblink',
  'create extension if not exists plpython3u',
  "alter system set log_statement = 'all'",
  'vacuum notes',
  'lock table public.sites',
  "notify x, 'y'",
  'truncate notes',
  "insert into notes (owner) values ('x')",
  'create materialized view mv as select 1',
  'create rule r as on insert to notes do also delete from notes',
  'prepare p as select 1',
  'checkpoint',
  'create publication p for all tables',
  // Multiple statements, transactions, comments and dollar-quoting tricks
  'begin; create table x (a int); commit;',
  'commit; create table public.x (a int)',
  'select 1; create table public.z (a int)',
  '/* a comment */ create table public.x (a int)',
  '-- only a comment\ncreate table public.x (a int)',
  '/* nested /* comment */ hiding */ drop table public.sites',
  '/* unterminated comment; create table x (a int)',
  'create table x (a text default $$; drop table public.sites; --$$); create table public.y (a int)',
  'create table x (a text default $q$ $$ $q$); set role postgres',
  'create table x (a int)\u0000; create table public.y (a int)',
  '',
  '   -- nothing but comments\n/* and more */',
  "create table x (a text default 'it''s'); create policy q on public.sites using (true)",
  // Row level security
  'create table x (id int)',
  'create table x (id int); alter table x enable row level security;',
  'create table x (id int); create policy p on x using (true);',
  'alter table notes disable row level security',
  'alter table notes no force row level security',
  `create table x (id int); ${secured('x')} alter table x disable row level security;`,
  'create view v as select * from notes',
  `create temp table x (id int); ${secured('x')}`,
  `create table x (id int) tablespace pg_default; ${secured('x')}`,
  `create table x (id int) with (autovacuum_enabled = false); ${secured('x')}`,
  'create index concurrently i2 on notes (owner)',
  'drop table notes cascade',
];
