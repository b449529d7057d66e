-- Single sign-on: the identities of an OpenID Connect provider linked to accounts. An identity is
-- the provider's issuer and its subject (`sub`), which never changes there, so a later change of
-- the address at the provider still signs in to the same account. An account made by SSO has no
-- password until it sets one through a password reset.

alter table users alter column password_hash drop not null;

-- `email` is the address the provider last asserted (verified) for this identity; the account's
-- own address is not changed by it.
create table if not exists sso_identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  issuer text not null,
  subject text not null,
  email text not null,
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz not null default now()
);
create unique index if not exists sso_identities_issuer_subject_key on sso_identities (issuer, subject);
-- One identity of each provider per account: an address that moved to another person at the
-- provider does not sign that person in to the account it was linked from.
create unique index if not exists sso_identities_user_issuer_key on sso_identities (user_id, issuer);
alter table sso_identities enable row level security;
drop policy if exists sso_identities_self on sso_identities;
create policy sso_identities_self on sso_identities
  using (user_id = nullif(current_setting('app.user_id', true), '')::uuid);
