import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadTool } from '@/app/api/agents/tools/leads/create/route';
import { POST as updateLeadTool } from '@/app/api/agents/tools/leads/update/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as signupRoute } from '@/app/api/auth/signup/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { POST as acceptRoute } from '@/app/api/invitations/accept/route';
import { POST as createKeyRoute } from '@/app/api/keys/route';
import { GET as auditRoute } from '@/app/api/sites/[site_id]/audit/route';
import { DELETE as revokeInvitationRoute } from '@/app/api/sites/[site_id]/invitations/[id]/route';
import { DELETE as removeRoute, PATCH as changeRoute } from '@/app/api/sites/[site_id]/members/[user_id]/route';
import { GET as teamRoute, POST as inviteRoute } from '@/app/api/sites/[site_id]/members/route';
import { DELETE as deleteSiteRoute, PATCH as updateSiteRoute } from '@/app/api/sites/[site_id]/route';
import { GET as listSitesRoute } from '@/app/api/visitors/sites/route';
import { POST as startWorkflowRoute } from '@/app/api/workflow/[name]/route';
import { resetConfig } from '@/lib/core/config';
import { resetProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { setSitePlan } from '@/lib/sites/repo';
import { call, createKey, createSite, createTenant, createUser, PASSWORD, uniqueEmail, type Tenant, type TestUser } from '@/tests/helpers/harness';
import { storedMembers } from '@/tests/helpers/members';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';

/**
 * Members, roles and invitations through the real routes on a real database, with the invitation
 * mail captured by a real SMTP server on 127.0.0.1: the link a person receives is the one they use.
 */
const smtp = useSmtpStandIn({ EMAIL_FROM: 'Site Growth <accounts@growth.example.com>' });

afterAll(async () => {
  delete process.env.PLAN_CAPS;
  resetConfig();
  await resetProviders();
});

type Role = 'admin' | 'member' | 'viewer';

/** An account signed up with `email` through the routes, and its session. */
async function signUpAs(email: string): Promise<{ id: string; auth: Record<string, string> }> {
  expect((await call(signupRoute, { method: 'POST', path: '/api/auth/signup', body: { email, password: PASSWORD } })).status).toBe(202);
  const token = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email, password: PASSWORD } });
  const auth = { authorization: `Bearer ${token.body.data.token}` };
  const me = await call(meRoute, { path: '/api/auth/me', headers: auth });
  return { id: me.body.data.id, auth };
}
const membersPath = (siteId: string) => `/api/sites/${siteId}/members`;
const team = (as: Pick<TestUser, 'auth'>, siteId: string) =>
  call(teamRoute, { path: membersPath(siteId), params: { site_id: siteId }, headers: as.auth });
const inviteAs = (as: Pick<TestUser, 'auth'>, siteId: string, email: string, role: string) =>
  call(inviteRoute, { method: 'POST', path: membersPath(siteId), params: { site_id: siteId }, headers: as.auth, body: { email, role } });
const accept = (as: Pick<TestUser, 'auth'>, token: string) =>
  call(acceptRoute, { method: 'POST', path: '/api/invitations/accept', headers: as.auth, body: { token } });
const changeRole = (as: Pick<TestUser, 'auth'>, siteId: string, userId: string, role: string) =>
  call(changeRoute, {
    method: 'PATCH',
    path: `${membersPath(siteId)}/${userId}`,
    params: { site_id: siteId, user_id: userId },
    headers: as.auth,
    body: { role },
  });
const remove = (as: Pick<TestUser, 'auth'>, siteId: string, userId: string) =>
  call(removeRoute, { method: 'DELETE', path: `${membersPath(siteId)}/${userId}`, params: { site_id: siteId, user_id: userId }, headers: as.auth });
const deleteSite = (as: Pick<TestUser, 'auth'>, siteId: string, confirm: string) =>
  call(deleteSiteRoute, { method: 'DELETE', path: `/api/sites/${siteId}`, params: { site_id: siteId }, headers: as.auth, body: { confirm } });
const revoke = (as: Pick<TestUser, 'auth'>, siteId: string, id: string) =>
  call(revokeInvitationRoute, {
    method: 'DELETE',
    path: `/api/sites/${siteId}/invitations/${id}`,
    params: { site_id: siteId, id },
    headers: as.auth,
  });

/** The invitation mails `address` received since `seen`, with the token of each link. */
function invitationsTo(address: string, seen: number) {
  return smtp.received
    .slice(seen)
    .filter((m) => m.envelope.to.includes(address) && /invitations\/accept\?token=/.test(m.parsed.text ?? ''))
    .map((mail) => ({ mail, token: decodeURIComponent(/invitations\/accept\?token=(\S+)/.exec(mail.parsed.text ?? '')![1]) }));
}

/** Invites `email` and answers the token of the link mailed for it. */
async function invited(owner: Pick<TestUser, 'auth'>, siteId: string, email: string, role: Role): Promise<{ id: string; token: string }> {
  const seen = smtp.received.length;
  const res = await inviteAs(owner, siteId, email, role);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const mails = invitationsTo(email, seen);
  expect(mails).toHaveLength(1);
  return { id: res.body.data.id, token: mails[0].token };
}

/** A new account that joined the site with `role` from its mailed link. */
async function join(owner: Pick<TestUser, 'auth'>, siteId: string, role: Role): Promise<TestUser> {
  const user = await createUser();
  const { token } = await invited(owner, siteId, user.email, role);
  const res = await accept(user, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return user;
}

const refused = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String), request_id: expect.any(String) } });
};

const badLink = (res: { status: number; body: any }) => {
  refused(res, 400, 'INVALID_REQUEST');
  expect(res.body.error.message).toContain('invalid, was already used, was revoked or has expired');
};

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
  // Room for the many invitations of this file (Basic allows 5 seats).
  await setSitePlan(t.siteId, { plan: 'pro' });
});

describe('invitations', () => {
  it('mails a link; the invited person signs up with the address, accepts, and sees the site with the role', async () => {
    const email = uniqueEmail();
    const seen = smtp.received.length;
    const res = await inviteAs(t.user, t.siteId, email.toUpperCase(), 'viewer');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      email,
      role: 'viewer',
      invited_by: t.user.id,
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(Date.parse(res.body.data.expires_at) - Date.parse(res.body.data.created_at)).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(JSON.stringify(res.body)).not.toMatch(/invite_/);

    const [{ mail, token }] = invitationsTo(email, seen);
    expect(mail.parsed.subject).toBe('You are invited to Test site');
    expect(mail.parsed.text).toContain('as viewer');
    expect(mail.parsed.text).toMatch(/http:\/\/localhost:3000\/invitations\/accept\?token=invite_/);
    // Only the hash is stored.
    const [stored] = await rows<{ token_hash: string }>(sql`select token_hash from site_invitations where id = ${res.body.data.id}`);
    expect(stored.token_hash).not.toContain(token);

    const pending = await team(t.user, t.siteId);
    expect(pending.body.data.invitations.map((i: { email: string }) => i.email)).toContain(email);

    // A newcomer: signs up with the invited address from the link, then accepts.
    const newcomer = await signUpAs(email);
    const joined = await accept(newcomer, token);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data).toEqual({ site_id: t.siteId, role: 'viewer', joined: true });

    const after = await team(newcomer, t.siteId);
    expect(after.status).toBe(200);
    expect(after.body.data.members).toEqual([
      { user_id: t.user.id, email: t.user.email, name: null, role: 'owner', created_at: expect.any(String) },
      { user_id: newcomer.id, email, name: null, role: 'viewer', created_at: expect.any(String) },
    ]);
    expect(after.body.data.invitations.map((i: { email: string }) => i.email)).not.toContain(email);

    const sites = await call(listSitesRoute, { path: '/api/visitors/sites', headers: newcomer.auth });
    expect(sites.body.data).toEqual([{ id: t.siteId, name: 'Test site', domain: null, created_at: expect.any(String), role: 'viewer' }]);
    const one = await call(listSitesRoute, { path: '/api/visitors/sites', query: { id: t.siteId }, headers: newcomer.auth });
    expect(one.body.data).toMatchObject({ id: t.siteId, role: 'viewer', settings: {} });
  });

  it('refuses a reused, unknown, malformed, revoked and expired link (400), and a replaced one', async () => {
    const user = await createUser();
    const { token } = await invited(t.user, t.siteId, user.email, 'member');
    expect((await accept(user, token)).status).toBe(200);
    badLink(await accept(user, token));
    badLink(await accept(user, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')));
    badLink(await accept(user, 'not-a-token'));
    badLink(await accept(user, `verify_${token.slice('invite_'.length)}`));

    const revokedFor = await createUser();
    const open = await invited(t.user, t.siteId, revokedFor.email, 'viewer');
    const res = await revoke(t.user, t.siteId, open.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ id: open.id, revoked: true });
    refused(await revoke(t.user, t.siteId, open.id), 404, 'NOT_FOUND');
    badLink(await accept(revokedFor, open.token));

    const lateFor = await createUser();
    const late = await invited(t.user, t.siteId, lateFor.email, 'viewer');
    await (await getDb()).execute(sql`update site_invitations set expires_at = now() - interval '1 second' where id = ${late.id}`);
    badLink(await accept(lateFor, late.token));

    // A new invitation to the same address replaces the open one: only the newest link works.
    const twiceFor = await createUser();
    const first = await invited(t.user, t.siteId, twiceFor.email, 'viewer');
    const second = await invited(t.user, t.siteId, twiceFor.email, 'admin');
    badLink(await accept(twiceFor, first.token));
    const ok = await accept(twiceFor, second.token);
    expect(ok.body.data).toEqual({ site_id: t.siteId, role: 'admin', joined: true });
    expect(await storedMembers(t.siteId)).toContainEqual({ user_id: twiceFor.id, role: 'admin' });
  });

  it('refuses another account (403) and keeps the link for the invited address', async () => {
    const invitee = await createUser();
    const stranger = await createUser();
    const { token } = await invited(t.user, t.siteId, invitee.email, 'viewer');
    refused(await accept(stranger, token), 403, 'FORBIDDEN');
    refused(await team(stranger, t.siteId), 403, 'FORBIDDEN');
    refused(await accept({ auth: {} }, token), 401, 'UNAUTHORIZED');
    expect((await accept(invitee, token)).body.data).toEqual({ site_id: t.siteId, role: 'viewer', joined: true });
  });

  it('refuses a member’s address (409), an owner role (400) and a foreign invitation id (404)', async () => {
    const mate = await join(t.user, t.siteId, 'viewer');
    refused(await inviteAs(t.user, t.siteId, mate.email, 'admin'), 409, 'CONFLICT');
    refused(await inviteAs(t.user, t.siteId, t.user.email, 'admin'), 409, 'CONFLICT');
    refused(await inviteAs(t.user, t.siteId, uniqueEmail(), 'owner'), 400, 'INVALID_REQUEST');
    refused(await inviteAs(t.user, t.siteId, 'not-an-address', 'viewer'), 400, 'INVALID_REQUEST');
    const other = await createTenant();
    const foreign = await invited(other.user, other.siteId, uniqueEmail(), 'viewer');
    refused(await revoke(t.user, t.siteId, foreign.id), 404, 'NOT_FOUND');
  });

  it('counts members and pending invitations toward members_per_site (403 PLAN_LIMIT_REACHED)', async () => {
    process.env.PLAN_CAPS = JSON.stringify({ basic: { members_per_site: 3 } });
    resetConfig();
    try {
      const owner = await createUser();
      const siteId = await createSite(owner, 'Small team');
      await join(owner, siteId, 'viewer');
      const pending = await invited(owner, siteId, uniqueEmail(), 'viewer');
      const res = await inviteAs(owner, siteId, uniqueEmail(), 'viewer');
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { cap: 'members_per_site', limit: 3, used: 3 } });
      // Inviting the pending address again replaces its invitation: no extra seat.
      expect((await inviteAs(owner, siteId, (await team(owner, siteId)).body.data.invitations[0].email, 'admin')).status).toBe(201);
      expect((await revoke(owner, siteId, pending.id)).status).toBe(404); // replaced, so no longer pending
    } finally {
      delete process.env.PLAN_CAPS;
      resetConfig();
    }
  });

  it('revokes the invitation when its mail cannot go (the SMTP server refuses the address)', async () => {
    const res = await inviteAs(t.user, t.siteId, `refuse-${uniqueEmail()}`, 'viewer');
    expect(res.status).toBe(502);
    const [row] = await rows<{ n: number }>(
      sql`select count(*)::int as n from site_invitations where site_id = ${t.siteId} and email like 'refuse-%' and revoked_at is null`,
    );
    expect(row.n).toBe(0);
  });
});

describe('roles', () => {
  let owner: TestUser;
  let siteId: string;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  beforeAll(async () => {
    owner = await createUser();
    siteId = await createSite(owner, 'Team site');
    [admin, member, viewer] = [await join(owner, siteId, 'admin'), await join(owner, siteId, 'member'), await join(owner, siteId, 'viewer')];
  });

  it('lets an admin manage members but the owner, and never make an owner', async () => {
    const mate = await join(admin, siteId, 'viewer');
    const changed = await changeRole(admin, siteId, mate.id, 'member');
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ user_id: mate.id, role: 'member' });
    refused(await changeRole(admin, siteId, owner.id, 'admin'), 403, 'FORBIDDEN');
    refused(await changeRole(admin, siteId, mate.id, 'owner'), 403, 'FORBIDDEN');
    refused(await remove(admin, siteId, owner.id), 403, 'FORBIDDEN');
    expect((await remove(admin, siteId, mate.id)).body.data).toEqual({ user_id: mate.id, removed: true });
    refused(await remove(admin, siteId, mate.id), 404, 'NOT_FOUND');
    refused(await changeRole(admin, siteId, mate.id, 'viewer'), 404, 'NOT_FOUND');
  });

  it('refuses members and viewers any change to the team (403), but lets them read it and leave', async () => {
    for (const who of [member, viewer]) {
      expect((await team(who, siteId)).status).toBe(200);
      refused(await inviteAs(who, siteId, uniqueEmail(), 'viewer'), 403, 'FORBIDDEN');
      refused(await changeRole(who, siteId, admin.id, 'viewer'), 403, 'FORBIDDEN');
      refused(await remove(who, siteId, admin.id), 403, 'FORBIDDEN');
    }
    const leaver = await join(owner, siteId, 'viewer');
    expect((await remove(leaver, siteId, leaver.id)).body.data).toEqual({ user_id: leaver.id, removed: true });
    refused(await team(leaver, siteId), 403, 'FORBIDDEN');
  });

  it('keeps one owner: the owner cannot leave, be removed or demote themselves', async () => {
    refused(await remove(owner, siteId, owner.id), 403, 'FORBIDDEN');
    refused(await changeRole(owner, siteId, owner.id, 'admin'), 403, 'FORBIDDEN');
    const owners = (await storedMembers(siteId)).filter((m) => m.role === 'owner');
    expect(owners).toEqual([{ user_id: owner.id, role: 'owner' }]);
  });

  it('applies the permission table to the site routes: keys for admins, site deletion for the owner', async () => {
    const key = (who: TestUser) =>
      call(createKeyRoute, { method: 'POST', path: '/api/keys', headers: who.auth, body: { site_id: siteId, name: 'k', scopes: ['read'] } });
    expect((await key(admin)).status).toBe(201);
    refused(await key(member), 403, 'FORBIDDEN');
    refused(await key(viewer), 403, 'FORBIDDEN');
    const rename = (who: TestUser) =>
      call(updateSiteRoute, {
        method: 'PATCH',
        path: `/api/sites/${siteId}`,
        params: { site_id: siteId },
        headers: who.auth,
        body: { name: 'Team site' },
      });
    expect((await rename(admin)).status).toBe(200);
    refused(await rename(member), 403, 'FORBIDDEN');
    const del = await deleteSite(admin, siteId, 'Team site');
    refused(del, 403, 'FORBIDDEN');
    expect(del.body.error.message).toContain('(admin)');
  });

  it('ends access with the next request when a member is removed or lowered', async () => {
    const mate = await join(owner, siteId, 'admin');
    const key = () =>
      call(createKeyRoute, { method: 'POST', path: '/api/keys', headers: mate.auth, body: { site_id: siteId, name: 'k', scopes: ['read'] } });
    expect((await key()).status).toBe(201);
    expect((await changeRole(owner, siteId, mate.id, 'viewer')).status).toBe(200);
    refused(await key(), 403, 'FORBIDDEN');
    expect((await team(mate, siteId)).status).toBe(200);
    expect((await remove(owner, siteId, mate.id)).status).toBe(200);
    refused(await team(mate, siteId), 403, 'FORBIDDEN');
    const sites = await call(listSitesRoute, { path: '/api/visitors/sites', headers: mate.auth });
    expect(sites.body.data).toEqual([]);
    refused(await call(listSitesRoute, { path: '/api/visitors/sites', query: { id: siteId }, headers: mate.auth }), 404, 'NOT_FOUND');
  });

  it("keeps the team's changes in the site's audit log, newest first, for the owner and admins only", async () => {
    const site = await createSite(owner, 'Audited');
    const mate = await join(owner, site, 'viewer');
    await changeRole(owner, site, mate.id, 'member');
    await remove(owner, site, mate.id);
    const audit = (who: TestUser, query: Record<string, string> = {}) =>
      call(auditRoute, { method: 'GET', path: `/api/sites/${site}/audit`, params: { site_id: site }, query, headers: who.auth });
    const res = await audit(owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kinds = (res.body.data as { kind: string; user_id: string; site_id: string; detail: Record<string, unknown> }[]).map((e) => [
      e.kind,
      e.user_id,
      e.site_id,
    ]);
    expect(kinds).toEqual([
      ['member_removed', owner.id, site],
      ['role_changed', owner.id, site],
      ['invitation_accepted', mate.id, site],
      ['invitation_sent', owner.id, site],
    ]);
    expect(res.body.data[1].detail).toEqual({ member_user_id: mate.id, from: 'viewer', to: 'member' });
    expect(JSON.stringify(res.body.data)).not.toContain(mate.email);
    expect(res.body.meta).toMatchObject({ total: 4, limit: expect.any(Number), offset: 0, has_more: false });
    expect((await audit(owner, { limit: '1', offset: '1' })).body.data.map((e: { kind: string }) => e.kind)).toEqual(['role_changed']);
    // Another site's log is not this one's; members and viewers may not read it.
    expect(
      (await call(auditRoute, { method: 'GET', path: `/api/sites/${siteId}/audit`, params: { site_id: siteId }, headers: owner.auth })).body.data,
    ).not.toEqual(res.body.data);
    expect((await audit(admin)).status).toBe(403); // admin of another site only
    for (const who of [member, viewer]) {
      refused(
        await call(auditRoute, { method: 'GET', path: `/api/sites/${siteId}/audit`, params: { site_id: siteId }, headers: who.auth }),
        403,
        'FORBIDDEN',
      );
    }
    expect(
      (await call(auditRoute, { method: 'GET', path: `/api/sites/${siteId}/audit`, params: { site_id: siteId }, headers: admin.auth })).status,
    ).toBe(200);
  });

  it('hands the site over: the member becomes owner, the old owner admin, and sites.owner_id follows', async () => {
    const from = await createUser();
    const site = await createSite(from, 'Handed over');
    const to = await join(from, site, 'member');
    refused(await changeRole(to, site, to.id, 'owner'), 403, 'FORBIDDEN');
    const stranger = await createUser();
    refused(await changeRole(from, site, stranger.id, 'owner'), 404, 'NOT_FOUND');
    const res = await changeRole(from, site, to.id, 'owner');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ user_id: to.id, role: 'owner' });
    expect(await storedMembers(site)).toEqual(
      expect.arrayContaining([
        { user_id: from.id, role: 'admin' },
        { user_id: to.id, role: 'owner' },
      ]),
    );
    const [row] = await rows<{ owner_id: string }>(sql`select owner_id from sites where id = ${site}`);
    expect(row.owner_id).toBe(to.id);
    // The old owner is an admin now: no deletion, no second hand-over.
    refused(await changeRole(from, site, from.id, 'owner'), 403, 'FORBIDDEN');
    refused(await deleteSite(from, site, 'Handed over'), 403, 'FORBIDDEN');
    expect((await deleteSite(to, site, 'Handed over')).status).toBe(200);
  });
});

describe('assignees are members', () => {
  it('refuses a lead assignee or an assignLeads assignee who is not a member (400)', async () => {
    const mate = await join(t.user, t.siteId, 'member');
    const stranger = await createUser();
    const { apiKey } = await createKey(t.user, t.siteId);
    const headers = { 'x-api-key': apiKey };
    const created = await call(createLeadTool, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers,
      body: { site_id: t.siteId, name: 'Ada', email: uniqueEmail(), assignee_id: stranger.id },
    });
    refused(created, 400, 'INVALID_REQUEST');
    expect(created.body.error.message).toMatch(/not a member of this site/i);
    const lead = await call(createLeadTool, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers,
      body: { site_id: t.siteId, name: 'Ada', email: uniqueEmail(), assignee_id: mate.id },
    });
    expect(lead.status, JSON.stringify(lead.body)).toBeLessThan(300);
    const leadId = lead.body.lead.id;
    const update = (assignee_id: string | null) =>
      call(updateLeadTool, {
        method: 'POST',
        path: '/api/agents/tools/leads/update',
        headers,
        body: { site_id: t.siteId, lead_id: leadId, assignee_id },
      });
    refused(await update(stranger.id), 400, 'INVALID_REQUEST');
    expect((await update(t.user.id)).status).toBe(200);
    expect((await update(null)).status).toBe(200);

    const start = (assignee_ids: string[]) =>
      call(startWorkflowRoute, {
        method: 'POST',
        path: '/api/workflow/assignLeads',
        params: { name: 'assignLeads' },
        headers,
        body: { site_id: t.siteId, assignee_ids },
      });
    const refusedStart = await start([mate.id, stranger.id]);
    expect(refusedStart.status, JSON.stringify(refusedStart.body)).toBe(400);
    expect(refusedStart.body.error.message).toContain(stranger.id);
    expect((await start([mate.id, t.user.id])).status).toBeLessThan(300);
  });
});
