import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as acceptRoute } from '@/app/api/invitations/accept/route';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import { resetProviders } from '@/lib/core/providers';
import { configureMailbox } from '@/lib/email/inbound';
import { suppress } from '@/lib/email/repo';
import { HTTP_METHODS } from '@/lib/http/openapi';
import { can, defaultPermission, RANK, ROLES, type SiteRole } from '@/lib/members/permissions';
import { setSitePlan } from '@/lib/sites/repo';
import { ENDS_SESSION, presenters } from '@/tests/helpers/auth-matrix';
import {
  call,
  createKey,
  createSite,
  createTenant,
  createUser,
  newSessionToken,
  uniqueEmail,
  type CallOptions,
  type Tenant,
  type TestUser,
} from '@/tests/helpers/harness';
import { startLlmStandIn, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { invitationTokenFor, invite, joinedMember } from '@/tests/helpers/members';
import { createApp, createPlatformKey } from '@/tests/helpers/platform';
import { insertReceivedEmail } from '@/tests/helpers/site-objects';

/**
 * The role matrix: every operation of the route manifest that accepts a session, called by a
 * member of each role (owner, admin, member, viewer) of the site it names, must be allowed or
 * refused (403) as the permission table says. Each entry states the least role the operation
 * needs, and that must agree with the permission the route declares: a new session route without
 * an entry fails this suite with its name.
 */

type Built = Omit<CallOptions, 'method' | 'path'>;
interface Entry {
  /** The least role that may call it; `none`: the route names no site, every signed-in account may. */
  least: SiteRole | 'none';
  /** A valid request naming `site_id`, made by `caller`. */
  request: (site_id: string, caller: TestUser) => Built | Promise<Built>;
  /** Why the least role differs from the route's declared permission (a rule of the domain beside the table). */
  rule?: string;
  /**
   * An account route whose success needs the account's own state (a second factor): the answer
   * every role gets alike instead of a success — the role plays no part in it.
   */
  answers?: number;
}

let llm: LlmStandIn;
let restoreLlm: (() => void) | undefined;
let t: Tenant;
const callers = {} as Record<SiteRole, TestUser>;

const handlerOf = (method: string, path: string) => {
  const handler = routeManifest.find((r) => r.path === path)?.module[method as 'GET'];
  if (!handler) throw new Error(`no route ${method} ${path}`);
  return handler;
};
const pathOf = (template: string, params: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_, n: string) => params[n] ?? `{${n}}`);
const made = async (method: string, path: string, o: Built) => {
  const res = await call(handlerOf(method, path), { method, path: pathOf(path, o.params), ...o });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path} failed: ${JSON.stringify(res.body)}`);
  return res.body;
};
const owner = () => t.user;
const origin = async () =>
  (
    await made('POST', '/api/sites/{site_id}/origins', {
      params: { site_id: t.siteId },
      headers: owner().auth,
      body: { origin: `https://${randomBytes(4).toString('hex')}.example.com` },
    })
  ).data.id as string;
const keyId = async () => (await createKey(owner(), t.siteId, ['read'])).id;
let appId: Promise<string> | undefined;
const platformKeyId = async () => (await createPlatformKey(t, await (appId ??= createApp(t).then((a) => a.id)), ['leads.read'])).id;
const conversation = async () =>
  (await made('POST', '/api/agents/cmo/message', { headers: presenters.xApiKey(t.key), body: { site_id: t.siteId, message: 'hi' } })).data
    .conversation_id as string;
const pendingRecipient = async (): Promise<{ id: string; code: string }> => {
  const email = uniqueEmail();
  const { id } = (
    await made('POST', '/api/sites/{site_id}/email-recipients', { params: { site_id: t.siteId }, headers: owner().auth, body: { email } })
  ).data;
  const log = await made('GET', '/api/sites/{site_id}/emails', { params: { site_id: t.siteId }, headers: owner().auth, query: { limit: 100 } });
  const mail = log.data.find((m: { to: string[] }) => m.to[0] === email);
  return { id, code: /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.text)![1] };
};
const mailboxBody = { host: '10.0.0.1', port: 993, username: 'roles@example.com', password: 'roles-password' };
const mailbox = async (): Promise<Record<string, never>> => {
  await configureMailbox(
    t.siteId,
    { kind: 'session', user: { id: t.user.id, email: t.user.email, name: null } },
    { ...mailboxBody, tls: true, folder: 'INBOX' },
  );
  return {};
};
const secureToken = async () =>
  (
    await made('POST', '/api/secure-tokens', {
      headers: presenters.xApiKey(t.key),
      body: { site_id: t.siteId, type: 'api_key', identifier: `roles-${randomBytes(4).toString('hex')}`, value: 's3cret' },
    })
  ).data.id as string;
const asKey = () => presenters.xApiKey(t.key);
/** A lead of the site, a note on it, a custom property, a one-row import and an anonymous visitor, made with the site's key. */
const leadId = async () =>
  (await made('POST', '/api/agents/tools/leads/create', { headers: asKey(), body: { site_id: t.siteId, name: 'Role lead', email: uniqueEmail() } }))
    .lead.id as string;
const noteOf = async () => {
  const lead_id = await leadId();
  const note = await made('POST', '/api/leads/{lead_id}/notes', {
    params: { lead_id },
    headers: asKey(),
    body: { site_id: t.siteId, body: 'Called' },
  });
  return { lead_id, note_id: note.data.id as string };
};
const propertyId = async () =>
  (
    await made('POST', '/api/leads/properties', {
      headers: asKey(),
      body: { site_id: t.siteId, key: `p_${randomBytes(4).toString('hex')}`, label: 'Plan', type: 'text' },
    })
  ).data.property_id as string;
const csvForm = () => {
  const form = new FormData();
  form.set('file', new File([`email,name\n${uniqueEmail()},Imported\n`], 'leads.csv', { type: 'text/csv' }));
  return form;
};
const importId = async () =>
  (await made('POST', '/api/leads/import', { headers: asKey(), query: { site_id: t.siteId }, form: csvForm() })).data.import_id as string;
const visitorId = async () =>
  (
    await made('POST', '/api/visitors/session', {
      headers: presenters.xSaApiKey(t.key),
      body: { site_id: t.siteId, fingerprint: `fp-${randomBytes(6).toString('hex')}` },
    })
  ).data.visitor_id as string;
/** A teammate to act on: a viewer of the site, joined through the API. */
const teammate = async () => (await joinedMember(owner(), t.siteId, 'viewer')).id;

const REGISTRY: Record<string, Entry> = {
  // Account routes: no site, any signed-in account.
  'GET /api/auth/me': { least: 'none', request: () => ({}) },
  'POST /api/auth/verify-email/resend': { least: 'none', request: () => ({}) },
  'DELETE /api/auth/token': { least: 'none', request: () => ({}) },
  'GET /api/auth/sessions': { least: 'none', request: () => ({}) },
  'DELETE /api/auth/sessions': { least: 'none', request: () => ({}) },
  'DELETE /api/auth/sessions/{id}': {
    least: 'none',
    request: async (_site_id, caller) => {
      const other = await newSessionToken(caller);
      const listed = await made('GET', '/api/auth/sessions', { headers: { authorization: `Bearer ${other}` } });
      return { params: { id: (listed.data as { id: string; current: boolean }[]).find((s) => s.current)!.id } };
    },
  },
  'GET /api/auth/events': { least: 'none', request: () => ({}) },
  'POST /api/auth/2fa/setup': { least: 'none', request: () => ({}) },
  // Before a set-up (the operations run in path order): "set up first" / "not on", for every role alike.
  'POST /api/auth/2fa/enable': { least: 'none', answers: 400, request: () => ({ body: { code: '123456' } }) },
  'POST /api/auth/2fa/disable': { least: 'none', answers: 400, request: () => ({ body: { code: '123456' } }) },
  'POST /api/auth/2fa/recovery-codes': { least: 'none', answers: 400, request: () => ({ body: { code: '123456' } }) },
  'POST /api/visitors/sites': { least: 'none', request: () => ({ body: { name: 'Own site' } }) },
  'POST /api/invitations/accept': {
    least: 'none',
    request: async (_site_id, caller) => {
      const host = await createUser();
      await invite(host, await createSite(host, 'Host site'), caller.email, 'viewer');
      return { body: { token: await invitationTokenFor(caller.email) } };
    },
  },
  // Reads: every member.
  'GET /api/visitors/sites': { least: 'viewer', request: (site_id) => ({ query: { site_id } }) },
  'GET /api/sites/{site_id}/origins': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/emails': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/email-recipients': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/email-sender': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/email-suppressions': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/mailbox': { least: 'viewer', request: async (site_id) => ({ params: { site_id }, ...(await mailbox()) }) },
  'GET /api/sites/{site_id}/audit': { least: 'admin', request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/members': { least: 'viewer', request: (site_id) => ({ params: { site_id } }) },
  // Day-to-day work: members and up.
  'POST /api/sites/{site_id}/emails/{email_id}/reply': {
    least: 'member',
    request: async (site_id) => ({ params: { site_id, email_id: (await insertReceivedEmail(site_id)).id }, body: { text: 'Yes, every Tuesday.' } }),
  },
  'POST /api/sites/{site_id}/conversations/{conversation_id}/messages': {
    least: 'member',
    request: async (site_id) => ({ params: { site_id, conversation_id: await conversation() }, body: { message: 'hi' } }),
  },
  'POST /api/sites/{site_id}/conversations': {
    least: 'member',
    request: (site_id) => ({ params: { site_id }, body: { agent: 'sales', message: 'hi' } }),
  },
  'POST /api/sites/{site_id}/mailbox/check': { least: 'member', request: async (site_id) => ({ params: { site_id }, ...(await mailbox()) }) },
  // Settings, keys, secrets, platform, members: admins and the owner.
  'PATCH /api/sites/{site_id}': { least: 'admin', request: (site_id) => ({ params: { site_id }, body: { name: 'Test site' } }) },
  'POST /api/sites/{site_id}/origins': {
    least: 'admin',
    request: (site_id) => ({ params: { site_id }, body: { origin: `https://${randomBytes(4).toString('hex')}.example.com` } }),
  },
  'DELETE /api/sites/{site_id}/origins/{origin_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { site_id, origin_id: await origin() } }),
  },
  'POST /api/sites/{site_id}/email-recipients': { least: 'admin', request: (site_id) => ({ params: { site_id }, body: { email: uniqueEmail() } }) },
  'DELETE /api/sites/{site_id}/email-recipients/{recipient_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { site_id, recipient_id: (await pendingRecipient()).id } }),
  },
  'POST /api/sites/{site_id}/email-recipients/{recipient_id}/verify': {
    least: 'admin',
    request: async (site_id) => {
      const { id, code } = await pendingRecipient();
      return { params: { site_id, recipient_id: id }, body: { code } };
    },
  },
  'PUT /api/sites/{site_id}/email-sender': { least: 'admin', request: (site_id) => ({ params: { site_id }, body: { from_name: 'Roles' } }) },
  'DELETE /api/sites/{site_id}/email-suppressions': {
    least: 'admin',
    request: async (site_id) => {
      const email = uniqueEmail();
      await suppress(site_id, email, 'manual');
      return { params: { site_id }, query: { email } };
    },
  },
  'PUT /api/sites/{site_id}/mailbox': { least: 'admin', request: (site_id) => ({ params: { site_id }, body: mailboxBody }) },
  'DELETE /api/sites/{site_id}/mailbox': { least: 'admin', request: async (site_id) => ({ params: { site_id }, ...(await mailbox()) }) },
  // A lead's import, export, custom properties, notes, timeline, merge, data export and erasure.
  'POST /api/leads/import': { least: 'member', request: (site_id) => ({ query: { site_id }, form: csvForm() }) },
  'GET /api/leads/import/{import_id}': {
    least: 'viewer',
    request: async (site_id) => ({ params: { import_id: await importId() }, query: { site_id } }),
  },
  'GET /api/leads/export': { least: 'viewer', request: (site_id) => ({ query: { site_id } }) },
  'GET /api/leads/properties': { least: 'viewer', request: (site_id) => ({ query: { site_id } }) },
  'POST /api/leads/properties': {
    least: 'admin',
    request: (site_id) => ({ body: { site_id, key: `p_${randomBytes(4).toString('hex')}`, label: 'Deal size', type: 'number' } }),
  },
  'PATCH /api/leads/properties/{property_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { property_id: await propertyId() }, body: { site_id, label: 'Plan name' } }),
  },
  'DELETE /api/leads/properties/{property_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { property_id: await propertyId() }, query: { site_id } }),
  },
  'POST /api/leads/{lead_id}/notes': {
    least: 'member',
    request: async (site_id) => ({ params: { lead_id: await leadId() }, body: { site_id, body: 'Called' } }),
  },
  'GET /api/leads/{lead_id}/notes': { least: 'viewer', request: async (site_id) => ({ params: { lead_id: await leadId() }, query: { site_id } }) },
  'DELETE /api/leads/{lead_id}/notes/{note_id}': { least: 'member', request: async (site_id) => ({ params: await noteOf(), query: { site_id } }) },
  'GET /api/leads/{lead_id}/timeline': { least: 'viewer', request: async (site_id) => ({ params: { lead_id: await leadId() }, query: { site_id } }) },
  'POST /api/leads/{lead_id}/merge': {
    least: 'member',
    request: async (site_id) => ({ params: { lead_id: await leadId() }, body: { site_id, other_lead_id: await leadId() } }),
  },
  'GET /api/leads/{lead_id}/export': { least: 'viewer', request: async (site_id) => ({ params: { lead_id: await leadId() }, query: { site_id } }) },
  'DELETE /api/leads/{lead_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { lead_id: await leadId() }, query: { site_id, erase: 'true' } }),
  },
  'DELETE /api/visitors/{visitor_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { visitor_id: await visitorId() }, query: { site_id } }),
  },
  'GET /api/keys': { least: 'admin', request: (site_id) => ({ query: { site_id } }) },
  'POST /api/keys': { least: 'admin', request: (site_id) => ({ body: { site_id, name: 'roles', scopes: ['read'] } }) },
  'PATCH /api/keys': { least: 'admin', request: async (site_id) => ({ body: { site_id, id: await keyId(), scopes: ['read', 'write'] } }) },
  'DELETE /api/keys': { least: 'admin', request: async (site_id) => ({ query: { site_id, id: await keyId() } }) },
  'GET /api/keys/{id}/usage': { least: 'admin', request: async (site_id) => ({ params: { id: await keyId() }, query: { site_id } }) },
  'POST /api/secure-tokens': {
    least: 'admin',
    request: (site_id) => ({ body: { site_id, type: 'api_key', identifier: `roles-${randomBytes(4).toString('hex')}`, value: 's3cret' } }),
  },
  'GET /api/secure-tokens': { least: 'admin', request: (site_id) => ({ query: { site_id } }) },
  'DELETE /api/secure-tokens': { least: 'admin', request: async (site_id) => ({ query: { site_id, id: await secureToken() } }) },
  'GET /api/secure-tokens/audit': { least: 'admin', request: (site_id) => ({ query: { site_id } }) },
  'GET /api/sites/{site_id}/platform-apps': { least: 'admin', request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/platform-apps': { least: 'admin', request: (site_id) => ({ params: { site_id }, body: { name: 'roles app' } }) },
  'GET /api/sites/{site_id}/platform-keys': { least: 'admin', request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/platform-keys': {
    least: 'admin',
    request: async (site_id) => ({
      params: { site_id },
      body: { app_id: await (appId ??= createApp(t).then((a) => a.id)), name: 'roles', capabilities: ['leads.read'] },
    }),
  },
  'DELETE /api/sites/{site_id}/platform-keys/{key_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { site_id, key_id: await platformKeyId() } }),
  },
  'GET /api/sites/{site_id}/platform-audit': { least: 'admin', request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/members': {
    least: 'admin',
    request: (site_id) => ({ params: { site_id }, body: { email: uniqueEmail(), role: 'viewer' } }),
  },
  'PATCH /api/sites/{site_id}/members/{user_id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { site_id, user_id: await teammate() }, body: { role: 'member' } }),
  },
  'DELETE /api/sites/{site_id}/members/{user_id}': {
    least: 'admin',
    rule: 'anyone but the owner may remove themselves (leave); removing another member needs members.manage',
    request: async (site_id) => ({ params: { site_id, user_id: await teammate() } }),
  },
  'DELETE /api/sites/{site_id}/invitations/{id}': {
    least: 'admin',
    request: async (site_id) => ({ params: { site_id, id: await invite(owner(), t.siteId, uniqueEmail(), 'viewer') } }),
  },
  // The owner only: a site made for each call, with the caller as a member of their role.
  'DELETE /api/sites/{site_id}': {
    least: 'owner',
    request: async (_site_id, caller) => {
      const doomed = await createSite(owner(), 'Doomed site');
      const role = (Object.keys(callers) as SiteRole[]).find((r) => callers[r] === caller)!;
      if (role !== 'owner') {
        await invite(owner(), doomed, caller.email, role);
        await call(acceptRoute, {
          method: 'POST',
          path: '/api/invitations/accept',
          headers: caller.auth,
          body: { token: await invitationTokenFor(caller.email) },
        });
      }
      return { params: { site_id: doomed }, body: { confirm: 'Doomed site' } };
    },
  },
};

const operations = routeManifest.flatMap(({ path, module }) =>
  HTTP_METHODS.flatMap((method) => {
    const handler = module[method];
    const def = handler?.definition;
    if (!def) return [];
    const session = def.auth.kind === 'session' || (def.auth.kind === 'apiKey' && def.auth.session === true);
    return session ? [{ id: `${method} ${path}`, method, path, handler, permission: def.permission ?? defaultPermission(method) }] : [];
  }),
);

beforeAll(async () => {
  t = await createTenant();
  // Room for the members, invitations and workflow runs the matrix makes.
  await setSitePlan(t.siteId, { plan: 'enterprise', rate_limit_per_minute: 10_000, concurrency_limit: 100 });
  callers.owner = t.user;
  callers.admin = await joinedMember(t.user, t.siteId, 'admin');
  callers.member = await joinedMember(t.user, t.siteId, 'member');
  callers.viewer = await joinedMember(t.user, t.siteId, 'viewer');
  llm = await startLlmStandIn();
  restoreLlm = useStandIn(llm);
});
afterAll(async () => {
  restoreLlm?.();
  await llm?.close();
  await resetProviders();
});

describe('the role matrix', () => {
  it('has an entry only for session operations that exist', () => {
    const known = new Set(operations.map((o) => o.id));
    expect(Object.keys(REGISTRY).filter((id) => !known.has(id))).toEqual([]);
  });
});

for (const op of operations) {
  describe(op.id, () => {
    const entry = REGISTRY[op.id];
    if (!entry) {
      it('has a role-matrix entry', () => {
        throw new Error(
          `${op.id} accepts a session but has no role-matrix entry: add one to REGISTRY in tests/integration/members/role-matrix.test.ts`,
        );
      });
      return;
    }
    if (entry.least !== 'none' && !entry.rule) {
      it(`declares a permission whose least role is ${entry.least}`, () => {
        const least = [...ROLES].reverse().find((r) => can(r, op.permission));
        expect(least, `${op.id} needs ${op.permission}`).toBe(entry.least);
      });
    }
    for (const role of ROLES) {
      const allowed = entry.least === 'none' || RANK[role] >= RANK[entry.least];
      it(`${allowed ? 'allows' : 'refuses (403)'} a${role === 'admin' || role === 'owner' ? 'n' : ''} ${role}`, async () => {
        const caller = callers[role];
        const built = await entry.request(t.siteId, caller);
        const auth = ENDS_SESSION.has(op.id) ? { authorization: `Bearer ${await newSessionToken(caller)}` } : caller.auth;
        const res = await call(op.handler, {
          method: op.method,
          path: pathOf(op.path, built.params),
          ...built,
          headers: { ...built.headers, ...auth },
        });
        if (entry.answers !== undefined) {
          expect(res.status, JSON.stringify(res.body)).toBe(entry.answers);
        } else if (allowed) {
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        } else {
          expect(res.status, JSON.stringify(res.body)).toBe(403);
          expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN', message: expect.stringContaining(`(${role})`) } });
        }
      });
    }
  });
}
