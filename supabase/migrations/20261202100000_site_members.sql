-- Team members of a site, each with a role, and the invitations mailed to bring new ones in.
-- Exactly one member of a site is its owner, and `sites.owner_id` names that same user: a new
-- site gets its owner as a member in the same statement (trigger), and a hand-over changes both
-- in one transaction.

create table if not exists site_members (
  site_id uuid not null references sites (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (site_id, user_id),
  constraint site_members_role_check check (role in ('owner', 'admin', 'member', 'viewer'))
);
create unique index if not exists site_members_one_owner on site_members (site_id) where role = 'owner';
create index if not exists site_members_user_idx on site_members (user_id, created_at);
-- Deleting an account looks up the memberships it invited (set null), as every other reference to users.
create index if not exists site_members_invited_by_idx on site_members (invited_by);
alter table site_members enable row level security;
drop policy if exists site_members_tenant on site_members;
create policy site_members_tenant on site_members
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);

-- Every existing site's owner becomes its owner member.
insert into site_members (site_id, user_id, role, created_at)
select id, owner_id, 'owner', created_at from sites
on conflict (site_id, user_id) do update set role = 'owner';

create or replace function site_members_add_owner() returns trigger language plpgsql as $$
begin
  insert into site_members (site_id, user_id, role) values (new.id, new.owner_id, 'owner')
  on conflict (site_id, user_id) do update set role = 'owner', updated_at = now();
  return new;
end;
$$;
drop trigger if exists sites_add_owner_member on sites;
create trigger sites_add_owner_member after insert on sites for each row execute function site_members_add_owner();

-- Only the SHA-256 of an invitation's token is kept; the token exists in the mail alone. A
-- pending invitation is neither accepted nor revoked and not yet expired; one address has at
-- most one invitation open per site (a new one replaces it).
create table if not exists site_invitations (
  id uuid primary key default gen_random_uuid(),
  site_id uuid not null references sites (id) on delete cascade,
  email text not null,
  role text not null,
  token_hash text not null,
  invited_by uuid references users (id) on delete set null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references users (id) on delete set null,
  revoked_at timestamptz,
  created_at timestamptz not null default now(),
  constraint site_invitations_role_check check (role in ('admin', 'member', 'viewer'))
);
create unique index if not exists site_invitations_hash_key on site_invitations (token_hash);
create unique index if not exists site_invitations_open_key on site_invitations (site_id, email)
  where accepted_at is null and revoked_at is null;
create index if not exists site_invitations_site_idx on site_invitations (site_id, created_at);
create index if not exists site_invitations_invited_by_idx on site_invitations (invited_by);
create index if not exists site_invitations_accepted_by_idx on site_invitations (accepted_by);
alter table site_invitations enable row level security;
drop policy if exists site_invitations_tenant on site_invitations;
create policy site_invitations_tenant on site_invitations
  using (site_id = nullif(current_setting('app.site_id', true), '')::uuid);
