import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import { createAnnotation } from '@/lib/analytics/annotations';
import { createSharedLink } from '@/lib/analytics/shares';
import { base32Decode, totpAt } from '@/lib/auth/totp';
import { now } from '@/lib/core/clock';
import { resetProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { configureMailbox } from '@/lib/email/inbound';
import { suppress } from '@/lib/email/repo';
import { grantCredits } from '@/lib/finder/credits-repo';
import { HTTP_METHODS } from '@/lib/http/openapi';
import { setSitePlan } from '@/lib/sites/repo';
import { UNKNOWN_CLIENT } from '@/lib/users/account-events';
import { openSession } from '@/lib/users/session-tokens';
import { enableTwoFactor, setUpTwoFactor } from '@/lib/users/two-factor';
import { deleteTwoFactor } from '@/lib/users/two-factor-repo';
import { authMatrix, ENDS_SESSION, platformKeyMatrix, presenters, sessionMatrix, type PlatformTenant } from '@/tests/helpers/auth-matrix';
import {
  call,
  createKey,
  createSite,
  createTenant,
  createUser,
  createVisitor,
  newSessionToken,
  uniqueEmail,
  type CallOptions,
  type CallResult,
  type Tenant,
} from '@/tests/helpers/harness';
import { startLlmStandIn, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { invitationTokenFor, invite, joinedMember } from '@/tests/helpers/members';
import { useFinderStandIns } from '@/tests/helpers/people-data-standin';
import { createPlatformFixture, createPlatformKey } from '@/tests/helpers/platform';
import { insertReceivedEmail } from '@/tests/helpers/site-objects';

/**
 * Every API-key and session operation of the route manifest runs the shared security matrix. The
 * registry below says how to build one valid request per operation; an operation without an
 * entry fails this suite, so a new route cannot ship without its auth cases.
 */

type Built = Omit<CallOptions, 'method' | 'path'>;
interface Entry {
  /** An otherwise valid request of the caller's tenant that names `site_id` (called per attempt). */
  request: (site_id: string) => Built | Promise<Built>;
  /** The request names a site, so foreign sites can be tried (default true). */
  namesSite?: boolean;
  /** Checks the valid answer when it is not a `{success: true}` envelope. */
  accepted?: (res: CallResult) => void;
  /** Platform routes: a request naming the other site's object, and the status it must get. */
  foreign?: { request: () => Built | Promise<Built>; status: number };
  /** Puts back what the operation's cases changed on the caller's account, after them. */
  reset?: () => Promise<void>;
}

let llm: LlmStandIn;
let restoreLlm: (() => void) | undefined;
let mine: Tenant;
let other: Tenant;
let platformMine: PlatformTenant;
let platformOther: PlatformTenant;

// Resources of the caller's site, created through the API when an entry asks for one.
const post = async (method: string, path: string, o: Built) => {
  const res = await call(handlerOf(method, path), { method, path: pathOf(path, o.params), ...o });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path} failed: ${JSON.stringify(res.body)}`);
  return res.body;
};
const tool = (name: string, body: Record<string, unknown>) =>
  post('POST', `/api/agents/tools/${name}`, { headers: presenters.xApiKey(mine.key), body: { site_id: mine.siteId, ...body } });
const session = async (): Promise<{ session_id: string; visitor_id: string }> => {
  const { session_id, visitor_id } = (
    await post('POST', '/api/visitors/session', { headers: presenters.xSaApiKey(mine.key), body: { site_id: mine.siteId } })
  ).data;
  return { session_id, visitor_id };
};
const lead = async (): Promise<string> => (await tool('leads/create', { name: 'Ada', email: uniqueEmail() })).lead.id;
const note = async (): Promise<{ lead_id: string; note_id: string }> => {
  const lead_id = await lead();
  const created = await post('POST', '/api/leads/{lead_id}/notes', {
    params: { lead_id },
    headers: presenters.xApiKey(mine.key),
    body: { site_id: mine.siteId, body: 'Called' },
  });
  return { lead_id, note_id: created.data.id };
};
const segment = async (): Promise<string> => (await tool('segments/create', { name: 'VIP' })).segment.segment_id;
const requirement = async (): Promise<string> => (await tool('requirements/create', { title: 'Audit' })).requirement.requirement_id;
const command = async (): Promise<string> =>
  (
    await post('POST', '/sites/{site_id}/commands', {
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(mine.key),
      body: { task: 'audit' },
    })
  ).data.command_id;
const goal = async (): Promise<string> =>
  (
    await post('POST', '/sites/{site_id}/goals', {
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(mine.key),
      body: { name: `Goal ${randomBytes(4).toString('hex')}`, type: 'conversion', match: 'purchase' },
    })
  ).data.id;
const origin = async (): Promise<string> =>
  (
    await post('POST', '/api/sites/{site_id}/origins', {
      params: { site_id: mine.siteId },
      headers: mine.user.auth,
      body: { origin: `https://${randomBytes(4).toString('hex')}.example.com` },
    })
  ).data.id;
const workflowRun = async (name = 'dailyStandUp', extra: Record<string, unknown> = {}): Promise<string> =>
  (await post('POST', '/api/workflow/{name}', { params: { name }, headers: presenters.xApiKey(mine.key), body: { site_id: mine.siteId, ...extra } }))
    .workflowId;
const conversation = async (): Promise<string> =>
  (await post('POST', '/api/agents/cmo/message', { headers: presenters.xApiKey(mine.key), body: { site_id: mine.siteId, message: 'hi' } })).data
    .conversation_id;
/** The caller's account with two-factor sign-in off, then set up (pending): a current code of the new secret. */
const pendingTwoFactor = async (): Promise<string> => {
  await deleteTwoFactor(mine.user.id);
  const { secret } = await setUpTwoFactor(mine.user.id);
  return totpAt(base32Decode(secret), now());
};
/** The caller's account with two-factor sign-in on (enabled with the previous step's code): a current code. */
const enabledTwoFactor = async (): Promise<string> => {
  await deleteTwoFactor(mine.user.id);
  const key = base32Decode((await setUpTwoFactor(mine.user.id)).secret);
  await enableTwoFactor(mine.user.id, totpAt(key, now() - 30_000), UNKNOWN_CLIENT);
  return totpAt(key, now());
};
const twoFactorOff = () => deleteTwoFactor(mine.user.id);
const keyId = async (): Promise<string> => (await createKey(mine.user, mine.siteId, ['read'])).id;
const platformKeyId = async (): Promise<string> => (await createPlatformKey(mine, platformMine.platform.appId, ['leads.read'])).id;
const otherSession = async (): Promise<string> =>
  (await post('POST', '/api/visitors/session', { headers: presenters.xSaApiKey(other.key), body: { site_id: other.siteId } })).data.session_id;
/** A pending test recipient of the caller's site and the code mailed to it (read from the outbox). */
const pendingRecipient = async (): Promise<{ id: string; code: string }> => {
  const email = uniqueEmail();
  const { id } = (
    await post('POST', '/api/sites/{site_id}/email-recipients', { params: { site_id: mine.siteId }, headers: mine.user.auth, body: { email } })
  ).data;
  const log = await post('GET', '/api/sites/{site_id}/emails', { params: { site_id: mine.siteId }, headers: mine.user.auth, query: { limit: 100 } });
  const mail = log.data.find((m: { to: string[] }) => m.to[0] === email);
  return { id, code: /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.text)![1] };
};
const mailboxBody = { host: '10.0.0.1', port: 993, username: 'matrix@example.com', password: 'matrix-password' };
/** A mailbox on the site (set up through the domain, as the owner would), so reading it answers 200. */
const mailboxOf = async (siteId: string): Promise<Record<string, never>> => {
  await configureMailbox(
    siteId,
    { kind: 'session', user: { id: mine.user.id, email: mine.user.email, name: null } },
    { ...mailboxBody, tls: true, folder: 'INBOX' },
  );
  return {};
};
const receivedEmail = async (siteId: string): Promise<string> => (await insertReceivedEmail(siteId)).id;
const secureToken = async (): Promise<string> =>
  (
    await post('POST', '/api/secure-tokens', {
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId, type: 'api_key', identifier: `matrix-${randomBytes(4).toString('hex')}`, value: 's3cret' },
    })
  ).data.id;
const newEndpoint = async (): Promise<string> =>
  (
    await post('POST', '/api/webhooks', {
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId, url: 'https://93.184.216.34/hook', events: ['lead.created'] },
    })
  ).data.id;
// One endpoint serves every entry that only reads or pings it (a site has a capped number).
let sharedEndpoint: Promise<string> | undefined;
const endpoint = (): Promise<string> => (sharedEndpoint ??= newEndpoint());
const delivery = async (): Promise<string> =>
  (
    await post('POST', '/api/webhooks/{id}/ping', {
      params: { id: await endpoint() },
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId },
    })
  ).data.delivery_id;
const subscription = async (): Promise<string> =>
  (
    await post('POST', '/api/event-subscriptions', {
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId, table: 'leads', event_types: ['INSERT'], workflow: 'dailyStandUp' },
    })
  ).data.id;
/** A CSV file of one lead (a fresh form per request: a body is read once). */
const csvForm = () => {
  const form = new FormData();
  form.set('file', new File([`email,name\n${uniqueEmail()},Ada\n`], 'leads.csv', { type: 'text/csv' }));
  return form;
};
const leadImport = async (): Promise<string> =>
  (await post('POST', '/api/leads/import', { headers: presenters.xApiKey(mine.key), query: { site_id: mine.siteId }, form: csvForm() })).data
    .import_id;
const leadProperty = async (): Promise<string> =>
  (
    await post('POST', '/api/leads/properties', {
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId, key: `p_${randomBytes(4).toString('hex')}`, label: 'Plan', type: 'text' },
    })
  ).data.property_id;
const SEQUENCE_BODY = { name: 'Welcome', steps: [{ delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello from us.' }] };
// One sequence serves every entry (enrollment requests make their own leads).
let sharedSequence: Promise<string> | undefined;
const sequence = (): Promise<string> =>
  (sharedSequence ??= post('POST', '/api/sequences', {
    headers: presenters.xApiKey(mine.key),
    body: { site_id: mine.siteId, ...SEQUENCE_BODY },
  }).then((b) => b.data.id as string));
/** An annotation of a site (made directly: the cases of the routes that change one each get their own). */
const annotationOf = async (site_id: string) => (await createAnnotation(site_id, { date: '2026-11-03', text: 'Price change' })).id;

/** A lead of the caller's site enrolled in the shared sequence. */
const enrolledLead = async (): Promise<{ id: string; lead_id: string }> => {
  const [id, lead_id] = await Promise.all([sequence(), lead()]);
  await post('POST', '/api/sequences/{id}/enrollments', {
    params: { id },
    headers: presenters.xApiKey(mine.key),
    body: { site_id: mine.siteId, lead_ids: [lead_id] },
  });
  return { id, lead_id };
};
// Robot instances: a record per request (no browser), or one running instance shared by the
// requests that need a browser (resumed when a valid call paused it).
const instance = async (): Promise<string> =>
  (
    await post('POST', '/api/instances', {
      headers: presenters.xApiKey(mine.key),
      body: { site_id: mine.siteId, user_id: mine.user.id, name: 'Matrix' },
    })
  ).data.id;
let runningId: string | undefined;
const runningInstance = async (): Promise<string> => {
  const robot = (path: string, body: Record<string, unknown>) =>
    post('POST', path, { headers: presenters.xApiKey(mine.key), body: { site_id: mine.siteId, ...body } });
  if (!runningId) {
    runningId = (await robot('/api/robots/instance', { activity: 'Matrix robot' })).data.instance.id as string;
    await robot('/api/robots/instance/act', { instance_id: runningId, message: 'snap', actions: [{ type: 'screenshot' }] });
  }
  const { status } = (await post('GET', '/api/instances/{id}', { params: { id: runningId }, headers: presenters.xApiKey(mine.key) })).data;
  if (status !== 'running') await robot('/api/robots/instance/resume', { instance_id: runningId });
  return runningId;
};

const REGISTRY: Record<string, Entry> = {
  // API key, tool routes
  'POST /api/agents/tools/getFinderCategoryIds': { request: (site_id) => ({ body: { site_id, query: 'software' } }) },
  'POST /api/agents/tools/analyzeICPTotalCount': { request: (site_id) => ({ body: { site_id, query: { role_title: 'sales' } } }) },
  'POST /api/agents/tools/createIcpMining': {
    request: (site_id) => ({
      body: { site_id, name: 'Sales heads', total_targets: 3, query: { role_title: `sales ${randomBytes(4).toString('hex')}` } },
    }),
  },
  'POST /api/agents/tools/searchRegionVenues': { request: (site_id) => ({ body: { site_id, region: 'Madrid, Spain', query: 'coworking' } }) },
  'POST /api/finder/person_role_search': { request: (site_id) => ({ body: { site_id, role_title: 'sales', page: 1 } }) },
  'POST /api/finder/person_role_search/totals': { request: (site_id) => ({ body: { site_id, role_title: 'sales' } }) },
  'POST /api/finder/person_role_search/createQuery': {
    request: (site_id) => ({
      body: { site_id, name: 'Sales heads', total_targets: 3, query: { role_title: `sales ${randomBytes(4).toString('hex')}` } },
    }),
  },
  'GET /api/finder/autocomplete/{category}': { request: (site_id) => ({ params: { category: 'industry' }, query: { site_id, q: 'soft' } }) },
  'POST /api/finder/icp': { request: (site_id) => ({ body: { site_id, organization_industries: ['ind_4'] } }) },
  'POST /api/finder/person_contacts_lookup': { request: (site_id) => ({ body: { site_id, person_id: 'p1', type: 'work_emails' } }) },
  'GET /api/finder/credits': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/agents/tools/leads/create': { request: (site_id) => ({ body: { site_id, name: 'Ada', email: uniqueEmail() } }) },
  'POST /api/agents/tools/leads/get': { request: (site_id) => ({ body: { site_id } }) },
  'POST /api/agents/tools/leads/properties': { request: (site_id) => ({ body: { site_id } }) },
  // API key or a member's session: lead import, export and custom properties
  'POST /api/leads/import': { request: (site_id) => ({ query: { site_id }, form: csvForm() }) },
  'GET /api/leads/import/{import_id}': { request: async (site_id) => ({ params: { import_id: await leadImport() }, query: { site_id } }) },
  'GET /api/leads/export': {
    request: (site_id) => ({ query: { site_id } }),
    accepted: (res) => expect(res.headers.get('content-type')).toMatch(/^text\/csv/),
  },
  'GET /api/leads/properties': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/leads/properties': {
    request: (site_id) => ({ body: { site_id, key: `p_${randomBytes(4).toString('hex')}`, label: 'Plan', type: 'text' } }),
  },
  'PATCH /api/leads/properties/{property_id}': {
    request: async (site_id) => ({ params: { property_id: await leadProperty() }, body: { site_id, label: 'Renamed' } }),
  },
  'DELETE /api/leads/properties/{property_id}': {
    request: async (site_id) => ({ params: { property_id: await leadProperty() }, query: { site_id } }),
  },
  'POST /api/agents/tools/leads/identify': {
    request: async (site_id) => ({ body: { site_id, visitor_id: (await session()).visitor_id, lead_id: await lead() } }),
  },
  'POST /api/agents/tools/leads/notes/add': { request: async (site_id) => ({ body: { site_id, lead_id: await lead(), body: 'Called' } }) },
  'POST /api/agents/tools/leads/notes/get': { request: async (site_id) => ({ body: { site_id, lead_id: await lead() } }) },
  'POST /api/agents/tools/leads/timeline': { request: async (site_id) => ({ body: { site_id, lead_id: await lead() } }) },
  'POST /api/agents/tools/leads/merge': { request: async (site_id) => ({ body: { site_id, lead_id: await lead(), other_lead_id: await lead() } }) },
  'POST /api/agents/tools/leads/qualify': { request: async (site_id) => ({ body: { site_id, lead_id: await lead(), status: 'qualified' } }) },
  'POST /api/agents/tools/leads/update': { request: async (site_id) => ({ body: { site_id, lead_id: await lead(), company: 'Acme' } }) },
  'POST /api/agents/tools/sequences/get': { request: (site_id) => ({ body: { site_id } }) },
  'POST /api/agents/tools/sequences/detail': { request: async (site_id) => ({ body: { site_id, sequence_id: await sequence() } }) },
  'POST /api/agents/tools/sequences/create': { request: (site_id) => ({ body: { site_id, ...SEQUENCE_BODY } }) },
  'POST /api/agents/tools/sequences/update': {
    request: async (site_id) => ({ body: { site_id, sequence_id: await sequence(), name: 'Welcome again' } }),
  },
  'POST /api/agents/tools/sequences/enroll': {
    request: async (site_id) => ({ body: { site_id, sequence_id: await sequence(), lead_ids: [await lead()] } }),
  },
  'POST /api/agents/tools/sequences/unenroll': {
    request: async (site_id) => {
      const { id, lead_id } = await enrolledLead();
      return { body: { site_id, sequence_id: id, lead_id } };
    },
  },
  'POST /api/agents/tools/requirements/create': { request: (site_id) => ({ body: { site_id, title: 'Audit' } }) },
  'POST /api/agents/tools/requirements/get': { request: (site_id) => ({ body: { site_id } }) },
  'POST /api/agents/tools/requirements/update': {
    request: async (site_id) => ({ body: { site_id, requirement_id: await requirement(), title: 'Audit again' } }),
  },
  'POST /api/agents/tools/segments/create': { request: (site_id) => ({ body: { site_id, name: 'VIP' } }) },
  'POST /api/agents/tools/segments/get': { request: (site_id) => ({ body: { site_id } }) },
  'POST /api/agents/tools/segments/update': { request: async (site_id) => ({ body: { site_id, segment_id: await segment(), name: 'VIP+' } }) },
  'POST /api/agents/tools/updateSiteSettings': { request: (site_id) => ({ body: { site_id, action: 'get' } }) },
  'GET /api/requirements': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/mcp': {
    namesSite: false,
    request: () => ({ headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    accepted: (res) => expect(res.body.result.tools.length).toBeGreaterThan(0),
  },
  // API key, visitor routes
  'GET /api/leads/{lead_id}/sessions': { request: async (site_id) => ({ params: { lead_id: await lead() }, query: { site_id } }) },
  'GET /api/visitors/{visitor_id}/sessions': {
    request: async (site_id) => ({ params: { visitor_id: (await session()).visitor_id }, query: { site_id } }),
  },
  'POST /api/visitors/identify': {
    request: async (site_id) => ({ body: { site_id, ...(await session()), email: uniqueEmail(), firstName: 'Ada' } }),
  },
  'POST /api/visitors/segment': {
    request: async (site_id) => ({ body: { site_id, visitor_id: (await session()).visitor_id, segment_id: await segment() } }),
  },
  'GET /api/visitors/session': { request: async (site_id) => ({ query: { site_id, session_id: (await session()).session_id } }) },
  'POST /api/visitors/session': { request: (site_id) => ({ body: { site_id } }) },
  'PUT /api/visitors/session': { request: async (site_id) => ({ body: { site_id, session_id: (await session()).session_id, page_views: 2 } }) },
  'POST /api/visitors/session/{session_id}/end': {
    request: async (site_id) => ({ params: { session_id: (await session()).session_id }, body: { site_id } }),
  },
  'POST /api/visitors/session/{session_id}/identify': {
    request: async (site_id) => ({ params: { session_id: (await session()).session_id }, body: { site_id, lead_id: await lead() } }),
  },
  'POST /api/visitors/session/end': { request: async (site_id) => ({ body: { site_id, session_id: (await session()).session_id } }) },
  'POST /api/visitors/track': {
    request: async (site_id) => ({ body: { site_id, session_id: (await session()).session_id, event_type: 'pageview' } }),
  },
  'POST /api/visitors/upload': {
    request: (site_id) => {
      const form = new FormData();
      form.append('site_id', site_id);
      form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
      return { body: form };
    },
  },
  // API key, /sites group
  'GET /sites': { namesSite: false, request: () => ({}) },
  'GET /sites/{site_id}': { request: (site_id) => ({ params: { site_id } }) },
  'GET /sites/{site_id}/stats': { request: (site_id) => ({ params: { site_id } }) },
  'GET /sites/{site_id}/analytics/overview': { request: (site_id) => ({ params: { site_id } }) },
  'GET /sites/{site_id}/analytics/breakdown/{dimension}': { request: (site_id) => ({ params: { site_id, dimension: 'referrers' } }) },
  'GET /sites/{site_id}/analytics/funnel': { request: (site_id) => ({ params: { site_id }, query: { steps: 'add_to_cart,purchase' } }) },
  'GET /sites/{site_id}/analytics/realtime': { request: (site_id) => ({ params: { site_id } }) },
  'GET /sites/{site_id}/goals': { request: (site_id) => ({ params: { site_id } }) },
  'POST /sites/{site_id}/goals': {
    request: (site_id) => ({ params: { site_id }, body: { name: `Goal ${randomBytes(4).toString('hex')}`, type: 'event', match: 'signup' } }),
  },
  'PATCH /sites/{site_id}/goals/{goal_id}': {
    request: async (site_id) => ({ params: { site_id, goal_id: await goal() }, body: { match: 'sign_up' } }),
  },
  'DELETE /sites/{site_id}/goals/{goal_id}': { request: async (site_id) => ({ params: { site_id, goal_id: await goal() } }) },
  'GET /sites/{site_id}/commands': { request: (site_id) => ({ params: { site_id } }) },
  'GET /sites/{site_id}/analytics/export': {
    request: (site_id) => ({ params: { site_id } }),
    accepted: (res) => expect(res.headers.get('content-type')).toBe('application/zip'),
  },
  'GET /sites/{site_id}/analytics/reports': { request: (site_id) => ({ params: { site_id } }) },
  'PUT /sites/{site_id}/analytics/reports': {
    request: (site_id) => ({ params: { site_id }, body: { frequency: 'weekly', recipients: [], spike_threshold: null } }),
  },
  'GET /sites/{site_id}/annotations': { request: (site_id) => ({ params: { site_id } }) },
  'POST /sites/{site_id}/annotations': { request: (site_id) => ({ params: { site_id }, body: { date: '2026-11-02', text: 'Launch' } }) },
  'PATCH /sites/{site_id}/annotations/{annotation_id}': {
    request: async (site_id) => ({ params: { site_id, annotation_id: await annotationOf(site_id) }, body: { text: 'Launch day' } }),
  },
  'DELETE /sites/{site_id}/annotations/{annotation_id}': {
    request: async (site_id) => ({ params: { site_id, annotation_id: await annotationOf(site_id) } }),
  },
  'GET /sites/{site_id}/shared-links': { request: (site_id) => ({ params: { site_id } }) },
  'POST /sites/{site_id}/shared-links': { request: (site_id) => ({ params: { site_id }, body: { label: 'Agency' } }) },
  'DELETE /sites/{site_id}/shared-links/{link_id}': {
    request: async (site_id) => ({ params: { site_id, link_id: (await createSharedLink(site_id, { label: 'Spare' })).id } }),
  },
  'POST /api/workflow/{name}': { request: (site_id) => ({ params: { name: 'dailyStandUp' }, body: { site_id } }) },
  'GET /api/logs/workflows': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/logs/workflows/{workflowId}': { request: async (site_id) => ({ params: { workflowId: await workflowRun() }, query: { site_id } }) },
  'POST /api/logs/workflows/{workflowId}/cancel': {
    request: async (site_id) => ({ params: { workflowId: await workflowRun() }, body: { site_id } }),
  },
  'POST /api/logs/workflows/{workflowId}/signal': {
    request: async (site_id) => ({
      params: { workflowId: await workflowRun('humanIntervention', { question: 'Go?' }) },
      body: { site_id, signal: 'humanResponse', payload: { ok: true } },
    }),
  },
  'POST /api/agents/cmo/message': { request: (site_id) => ({ body: { site_id, message: 'hello' } }) },
  // API key, webhooks and inbound change events
  'POST /api/webhooks': { request: (site_id) => ({ body: { site_id, url: 'https://93.184.216.34/hook', events: ['workflow.completed'] } }) },
  'GET /api/webhooks': { request: (site_id) => ({ query: { site_id } }) },
  'DELETE /api/webhooks': { request: async (site_id) => ({ query: { site_id, id: await newEndpoint() } }) },
  'POST /api/webhooks/{id}/ping': { request: async (site_id) => ({ params: { id: await endpoint() }, body: { site_id } }) },
  'POST /api/webhooks/{id}/rotate': { request: async (site_id) => ({ params: { id: await endpoint() }, body: { site_id } }) },
  'GET /api/webhooks/deliveries': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/webhooks/deliveries/{id}': { request: async (site_id) => ({ params: { id: await delivery() }, query: { site_id } }) },
  'POST /api/webhooks/deliveries/{id}/redeliver': { request: async (site_id) => ({ params: { id: await delivery() }, body: { site_id } }) },
  'POST /api/event-subscriptions': {
    request: (site_id) => ({ body: { site_id, table: 'leads', event_types: ['INSERT'], workflow: 'dailyStandUp' } }),
  },
  'GET /api/event-subscriptions': { request: (site_id) => ({ query: { site_id } }) },
  'DELETE /api/event-subscriptions': { request: async (site_id) => ({ query: { site_id, id: await subscription() } }) },
  // API key, outreach sequences
  'POST /api/sequences': { request: (site_id) => ({ body: { site_id, ...SEQUENCE_BODY } }) },
  'GET /api/sequences': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/sequences/{id}': { request: async (site_id) => ({ params: { id: await sequence() }, query: { site_id } }) },
  'PATCH /api/sequences/{id}': { request: async (site_id) => ({ params: { id: await sequence() }, body: { site_id, name: 'Welcome again' } }) },
  'POST /api/sequences/{id}/enrollments': {
    request: async (site_id) => ({ params: { id: await sequence() }, body: { site_id, lead_ids: [await lead()] } }),
  },
  'DELETE /api/sequences/{id}/enrollments/{lead_id}': { request: async (site_id) => ({ params: await enrolledLead(), query: { site_id } }) },
  'POST /api/sequences/{id}/enrollments/{lead_id}/approve': {
    request: async (site_id) => {
      // An enrollment holding an agent's draft for review, as the step's job leaves it.
      const params = await enrolledLead();
      await (
        await getDb()
      )
        .update(sequenceEnrollments)
        .set({ draft: { step: 0, subject: 'Hi', body: 'Hello.', approved: false, created_at: new Date().toISOString() }, nextSendAt: null })
        .where(and(eq(sequenceEnrollments.sequenceId, params.id), eq(sequenceEnrollments.leadId, params.lead_id)));
      return { params, body: { site_id, body: 'Hello again.' } };
    },
  },
  // A person: notes, timeline, merge and export (key or member), erasure (a signed-in owner or admin)
  'POST /api/leads/{lead_id}/notes': { request: async (site_id) => ({ params: { lead_id: await lead() }, body: { site_id, body: 'Called' } }) },
  'GET /api/leads/{lead_id}/notes': { request: async (site_id) => ({ params: { lead_id: await lead() }, query: { site_id } }) },
  'DELETE /api/leads/{lead_id}/notes/{note_id}': { request: async (site_id) => ({ params: await note(), query: { site_id } }) },
  'GET /api/leads/{lead_id}/timeline': { request: async (site_id) => ({ params: { lead_id: await lead() }, query: { site_id } }) },
  'POST /api/leads/{lead_id}/merge': {
    request: async (site_id) => ({ params: { lead_id: await lead() }, body: { site_id, other_lead_id: await lead() } }),
  },
  'GET /api/leads/{lead_id}/export': { request: async (site_id) => ({ params: { lead_id: await lead() }, query: { site_id } }) },
  'DELETE /api/leads/{lead_id}': { request: async (site_id) => ({ params: { lead_id: await lead() }, query: { site_id, erase: 'true' } }) },
  'DELETE /api/visitors/{visitor_id}': { request: async (site_id) => ({ params: { visitor_id: await createVisitor(mine) }, query: { site_id } }) },
  'POST /api/workflow/webhook': { request: (site_id) => ({ body: { site_id, type: 'INSERT', table: 'leads', record: { site_id } } }) },
  'POST /api/agents/sales/message': { request: (site_id) => ({ body: { site_id, message: 'hello' } }) },
  'POST /api/agents/customerSupport/message': { request: (site_id) => ({ body: { site_id, message: 'hello' } }) },
  'POST /api/agents/email/reply': { request: (site_id) => ({ body: { site_id, from: 'a@example.com', subject: 's', text: 'hello' } }) },
  'POST /api/agents/copywriter/content-editor': { request: (site_id) => ({ body: { site_id, content: 'hello', instruction: 'shorter' } }) },
  'GET /api/agents/conversations': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/agents/conversations/{conversation_id}': {
    request: async (site_id) => ({ params: { conversation_id: await conversation() }, query: { site_id } }),
  },
  'POST /sites/{site_id}/commands/{command_id}/cancel': { request: async (site_id) => ({ params: { site_id, command_id: await command() } }) },
  'POST /sites/{site_id}/commands': { request: (site_id) => ({ params: { site_id }, body: { task: 'audit' } }) },
  'GET /sites/{site_id}/commands/{command_id}': { request: async (site_id) => ({ params: { site_id, command_id: await command() } }) },
  // API key (x-api-key) or the owner's session
  'POST /api/secure-tokens': {
    request: (site_id) => ({ body: { site_id, type: 'api_key', identifier: `matrix-${randomBytes(4).toString('hex')}`, value: 's3cret' } }),
  },
  'GET /api/secure-tokens': { request: (site_id) => ({ query: { site_id } }) },
  'DELETE /api/secure-tokens': { request: async (site_id) => ({ query: { site_id, id: await secureToken() } }) },
  'POST /api/secure-tokens/{id}/decrypt': { request: async (site_id) => ({ params: { id: await secureToken() }, body: { site_id } }) },
  'GET /api/instances': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/instances': { request: (site_id) => ({ body: { site_id, user_id: mine.user.id, name: 'Matrix' } }) },
  'GET /api/instances/{id}': { request: async (site_id) => ({ params: { id: await instance() }, query: { site_id } }) },
  'PUT /api/instances/{id}': { request: async (site_id) => ({ params: { id: await instance() }, body: { site_id, name: 'Renamed' } }) },
  'DELETE /api/instances/{id}': { request: async (site_id) => ({ params: { id: await instance() }, query: { site_id } }) },
  'GET /api/instances/{id}/logs': { request: async (site_id) => ({ params: { id: await instance() }, query: { site_id } }) },
  'POST /api/instances/{id}/logs': {
    request: async (site_id) => ({ params: { id: await instance() }, body: { site_id, log_type: 'system', message: 'hello' } }),
  },
  'GET /api/instances/{id}/plans': { request: async (site_id) => ({ params: { id: await instance() }, query: { site_id } }) },
  'POST /api/instances/{id}/plans': {
    request: async (site_id) => ({ params: { id: await instance() }, body: { site_id, title: 'Plan', plan_type: 'task' } }),
  },
  'GET /api/instances/{id}/screenshot': { request: async (site_id) => ({ params: { id: await runningInstance() }, query: { site_id } }) },
  'POST /api/robots/instance': { request: async (site_id) => ({ body: { site_id, activity: 'Look around', instance_id: await runningInstance() } }) },
  'POST /api/robots/instance/act': {
    request: async (site_id) => ({ body: { site_id, instance_id: await runningInstance(), message: 'snap', actions: [{ type: 'screenshot' }] } }),
  },
  'POST /api/robots/instance/pause': { request: async (site_id) => ({ body: { site_id, instance_id: await runningInstance() } }) },
  'POST /api/robots/instance/resume': { request: async (site_id) => ({ body: { site_id, instance_id: await instance(), timeout_hours: 0.5 } }) },
  'POST /api/robots/instance/stop': { request: async (site_id) => ({ body: { site_id, instance_id: await instance() } }) },
  'POST /api/robots/instance/delete': { request: async (site_id) => ({ body: { site_id, instance_id: await instance() } }) },
  'POST /api/robots/instance/assistant': { request: (site_id) => ({ body: { site_id, message: 'Look around' } }) },
  // Session
  'GET /api/auth/me': { namesSite: false, request: () => ({}) },
  'POST /api/auth/verify-email/resend': { namesSite: false, request: () => ({}) },
  'DELETE /api/auth/token': { namesSite: false, request: () => ({}) },
  'GET /api/auth/sessions': { namesSite: false, request: () => ({}) },
  'DELETE /api/auth/sessions': { namesSite: false, request: () => ({}) },
  'DELETE /api/auth/sessions/{id}': { namesSite: false, request: async () => ({ params: { id: await openSession(mine.user.id) } }) },
  'GET /api/auth/events': { namesSite: false, request: () => ({}) },
  'POST /api/auth/2fa/setup': { namesSite: false, request: async () => (await twoFactorOff(), {}), reset: twoFactorOff },
  'POST /api/auth/2fa/enable': { namesSite: false, request: async () => ({ body: { code: await pendingTwoFactor() } }), reset: twoFactorOff },
  'POST /api/auth/2fa/disable': { namesSite: false, request: async () => ({ body: { code: await enabledTwoFactor() } }), reset: twoFactorOff },
  'POST /api/auth/2fa/recovery-codes': {
    namesSite: false,
    request: async () => ({ body: { code: await enabledTwoFactor() } }),
    reset: twoFactorOff,
  },
  'GET /api/secure-tokens/audit': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/keys': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/keys': { request: (site_id) => ({ body: { site_id, name: 'matrix', scopes: ['read'] } }) },
  'DELETE /api/keys': { request: async (site_id) => ({ query: { site_id, id: await keyId() } }) },
  'PATCH /api/keys': { request: async (site_id) => ({ body: { site_id, id: await keyId(), scopes: ['read'] } }) },
  'GET /api/keys/{id}/usage': { request: async (site_id) => ({ params: { id: await keyId() }, query: { site_id } }) },
  'GET /api/sites/{site_id}/origins': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/origins': {
    request: (site_id) => ({ params: { site_id }, body: { origin: `https://${randomBytes(4).toString('hex')}.example.com` } }),
  },
  'DELETE /api/sites/{site_id}/origins/{origin_id}': { request: async (site_id) => ({ params: { site_id, origin_id: await origin() } }) },
  'PATCH /api/sites/{site_id}': { request: (site_id) => ({ params: { site_id }, body: { name: 'Test site' } }) },
  // The owner's case deletes a site made for it, so the caller's own site stays for the other operations.
  'DELETE /api/sites/{site_id}': {
    request: async (site_id) =>
      site_id === mine.siteId
        ? { params: { site_id: await createSite(mine.user, 'Doomed site') }, body: { confirm: 'Doomed site' } }
        : { params: { site_id }, body: { confirm: 'Test site' } },
  },
  'GET /api/visitors/sites': { request: (site_id) => ({ query: { site_id } }) },
  'GET /api/sites/{site_id}/platform-apps': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/platform-apps': { request: (site_id) => ({ params: { site_id }, body: { name: 'matrix app' } }) },
  'GET /api/sites/{site_id}/platform-keys': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/platform-keys': {
    request: (site_id) => ({ params: { site_id }, body: { app_id: platformMine.platform.appId, name: 'matrix', capabilities: ['leads.read'] } }),
  },
  'DELETE /api/sites/{site_id}/platform-keys/{key_id}': { request: async (site_id) => ({ params: { site_id, key_id: await platformKeyId() } }) },
  'GET /api/sites/{site_id}/platform-audit': { request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/emails': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/emails/{email_id}/reply': {
    request: async (site_id) => ({ params: { site_id, email_id: await receivedEmail(site_id) }, body: { text: 'Yes, every Tuesday.' } }),
  },
  'GET /api/sites/{site_id}/email-recipients': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/email-recipients': { request: (site_id) => ({ params: { site_id }, body: { email: uniqueEmail() } }) },
  'DELETE /api/sites/{site_id}/email-recipients/{recipient_id}': {
    request: async (site_id) => ({ params: { site_id, recipient_id: (await pendingRecipient()).id } }),
  },
  'POST /api/sites/{site_id}/email-recipients/{recipient_id}/verify': {
    request: async (site_id) => {
      const { id, code } = await pendingRecipient();
      return { params: { site_id, recipient_id: id }, body: { code } };
    },
  },
  'POST /api/sites/{site_id}/conversations/{conversation_id}/messages': {
    request: async (site_id) => ({ params: { site_id, conversation_id: await conversation() }, body: { message: 'hi' } }),
  },
  'POST /api/sites/{site_id}/conversations': { request: (site_id) => ({ params: { site_id }, body: { agent: 'sales', message: 'hi' } }) },
  'GET /api/sites/{site_id}/email-sender': { request: (site_id) => ({ params: { site_id } }) },
  'PUT /api/sites/{site_id}/email-sender': { request: (site_id) => ({ params: { site_id }, body: { from_name: 'Matrix' } }) },
  'GET /api/sites/{site_id}/email-suppressions': { request: (site_id) => ({ params: { site_id } }) },
  'DELETE /api/sites/{site_id}/email-suppressions': {
    request: async (site_id) => {
      const email = uniqueEmail();
      await suppress(site_id, email, 'manual');
      return { params: { site_id }, query: { email } };
    },
  },
  'GET /api/sites/{site_id}/mailbox': { request: async (site_id) => ({ params: { site_id }, ...(await mailboxOf(site_id)) }) },
  'PUT /api/sites/{site_id}/mailbox': { request: (site_id) => ({ params: { site_id }, body: mailboxBody }) },
  'DELETE /api/sites/{site_id}/mailbox': { request: async (site_id) => ({ params: { site_id }, ...(await mailboxOf(site_id)) }) },
  'POST /api/sites/{site_id}/mailbox/check': { request: async (site_id) => ({ params: { site_id }, ...(await mailboxOf(site_id)) }) },
  // Session: members and invitations (a teammate of the caller's site per request, joined through the API)
  'GET /api/sites/{site_id}/audit': { request: (site_id) => ({ params: { site_id } }) },
  'GET /api/sites/{site_id}/members': { request: (site_id) => ({ params: { site_id } }) },
  'POST /api/sites/{site_id}/members': { request: (site_id) => ({ params: { site_id }, body: { email: uniqueEmail(), role: 'viewer' } }) },
  'PATCH /api/sites/{site_id}/members/{user_id}': {
    request: async (site_id) => ({
      params: { site_id, user_id: (await joinedMember(mine.user, mine.siteId, 'viewer')).id },
      body: { role: 'member' },
    }),
  },
  'DELETE /api/sites/{site_id}/members/{user_id}': {
    request: async (site_id) => ({ params: { site_id, user_id: (await joinedMember(mine.user, mine.siteId, 'viewer')).id } }),
  },
  'DELETE /api/sites/{site_id}/invitations/{id}': {
    request: async (site_id) => ({ params: { site_id, id: await invite(mine.user, mine.siteId, uniqueEmail(), 'viewer') } }),
  },
  // A third account invites the caller's address to a site of its own; the caller accepts.
  'POST /api/invitations/accept': {
    namesSite: false,
    request: async () => {
      const host = await createUser();
      await invite(host, await createSite(host, 'Host site'), mine.user.email, 'viewer');
      return { body: { token: await invitationTokenFor(mine.user.email) } };
    },
  },
  // Platform key
  'GET /api/platform/me': { namesSite: false, request: () => ({}) },
  'GET /api/platform/leads': { request: (site_id) => ({ query: { site_id } }) },
  'POST /api/platform/leads': { request: (site_id) => ({ body: { site_id, leads: [{ name: 'Ada', email: uniqueEmail() }] } }) },
  'POST /api/platform/tracking/event': {
    request: async (site_id) => ({ body: { site_id, session_id: (await session()).session_id, event_type: 'custom' } }),
    foreign: { request: async () => ({ body: { session_id: await otherSession(), event_type: 'custom' } }), status: 404 },
  },
  'POST /api/platform/db/migrations': {
    request: (site_id) => {
      const t = `t_${randomBytes(4).toString('hex')}`;
      return {
        body: {
          site_id,
          name: `m_${t}`,
          sql: `create table ${t} (id int primary key); alter table ${t} enable row level security; create policy ${t}_all on ${t} to public using (true);`,
        },
      };
    },
  },
  'POST /api/platform/email/send': { request: (site_id) => ({ body: { site_id, to: [uniqueEmail()], subject: 'Hello', text: 'Hello' } }) },
  'POST /api/visitors/sites': { namesSite: false, request: () => ({ body: { name: 'Another site' } }) },
};

const operations = routeManifest.flatMap(({ path, module }) =>
  HTTP_METHODS.flatMap((method) => {
    const handler = module[method];
    return handler?.definition ? [{ id: `${method} ${path}`, method, path, handler, auth: handler.definition.auth }] : [];
  }),
);

function handlerOf(method: string, path: string) {
  const op = operations.find((o) => o.id === `${method} ${path}`);
  if (!op) throw new Error(`no route ${method} ${path} in the manifest`);
  return op.handler;
}

/** `/sites/{site_id}` with its params filled in. */
const pathOf = (template: string, params: Record<string, string> = {}) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);

let finder: { close(): Promise<void> } | undefined;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  const [mineApp, otherApp] = await Promise.all([createPlatformFixture(mine), createPlatformFixture(other)]);
  platformMine = { tenant: mine, platform: mineApp };
  platformOther = { tenant: other, platform: otherApp };
  // The matrix starts many workflow runs that no worker executes: room for them under the running cap.
  await setSitePlan(mine.siteId, { plan: 'enterprise', rate_limit_per_minute: 10_000, concurrency_limit: 100 });
  // The finder answers 503 without its provider; the local stand-in makes its valid request succeed.
  // Agent routes and commands need a model: the local OpenAI-compatible stand-in (no worker runs them here).
  llm = await startLlmStandIn();
  restoreLlm = useStandIn(llm);
  finder = await useFinderStandIns('matrix');
  // Paid finder calls need credits.
  await grantCredits(mine.siteId, 100_000);
});
afterAll(async () => {
  await finder?.close();
  restoreLlm?.();
  await llm?.close();
  // The workflow routes opened the embedded engine on this file's database.
  await resetProviders();
});
const tenants = () => ({ mine, other });
const platformTenants = () => ({ mine: platformMine, other: platformOther });

const registryHint = 'add an entry to REGISTRY in tests/integration/http/auth-matrix.test.ts (how to build one valid request)';

describe('every operation of the manifest', () => {
  it('has a registry entry only for operations that exist', () => {
    const known = new Set(operations.map((o) => o.id));
    expect(Object.keys(REGISTRY).filter((id) => !known.has(id))).toEqual([]);
  });
});

for (const op of operations) {
  if (op.auth.kind === 'public') continue;
  describe(op.id, () => {
    const entry = REGISTRY[op.id];
    if (!entry) {
      it('has an auth-matrix entry', () => {
        throw new Error(`${op.id} (${op.auth.kind}) has no auth-matrix entry: ${registryHint}`);
      });
      return;
    }
    if (entry.reset) afterAll(entry.reset);
    const send = async (headers: Record<string, string>, siteId: string) => {
      const built = await entry.request(siteId);
      // An operation that ends its session gets a session of the caller's own in place of the shared one.
      if (ENDS_SESSION.has(op.id) && headers.authorization === mine.user.auth.authorization) {
        headers = { authorization: `Bearer ${await newSessionToken(mine.user)}` };
      }
      return call(op.handler, { method: op.method, path: pathOf(op.path, built.params), ...built, headers: { ...built.headers, ...headers } });
    };
    if (op.auth.kind === 'platformKey') {
      const foreign = entry.foreign;
      platformKeyMatrix({
        tenants: platformTenants,
        send,
        capabilities: op.auth.capabilities,
        namesSite: entry.namesSite,
        foreignObject: foreign && {
          status: foreign.status,
          send: async (headers) => {
            const built = await foreign.request();
            return call(op.handler, { method: op.method, path: pathOf(op.path, built.params), ...built, headers: { ...built.headers, ...headers } });
          },
        },
      });
      return;
    }
    // A platform key opens the platform API only: every other route refuses it in any header.
    it('refuses a platform key (401)', async () => {
      for (const present of Object.values(presenters)) {
        const res = await send(present(platformMine.platform.key), mine.siteId);
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    });
    if (op.auth.kind === 'session') {
      sessionMatrix({ tenants, send, namesSite: entry.namesSite });
      return;
    }
    if (op.auth.kind !== 'apiKey') {
      it('has a matrix for its credential kind', () => {
        throw new Error(`${op.id}: no auth matrix for credential kind "${op.auth.kind}"`);
      });
      return;
    }
    const headers = op.auth.headers;
    // The spec's scopes: read for GET, write otherwise, unless the route declares its own.
    const write = (op.auth.scope ?? (op.method === 'GET' ? 'read' : 'write')) === 'write';
    for (const header of headers) {
      const present = presenters[header === 'bearer' ? 'bearer' : header === 'x-api-key' ? 'xApiKey' : 'xSaApiKey'];
      describe(`key in ${header}`, () => authMatrix({ tenants, present, write, send, namesSite: entry.namesSite, accepted: entry.accepted }));
    }
    if (op.auth.session) {
      const keyPresenters = headers.map((h) => presenters[h === 'bearer' ? 'bearer' : h === 'x-api-key' ? 'xApiKey' : 'xSaApiKey']);
      describe("the site owner's session", () =>
        sessionMatrix({ tenants, send, namesSite: entry.namesSite, keyPresenters, accepted: entry.accepted }));
    }
    it(`ignores a key in a header other than ${headers.join(', ')} (401)`, async () => {
      const unread = Object.entries({ bearer: presenters.bearer, 'x-api-key': presenters.xApiKey, 'x-sa-api-key': presenters.xSaApiKey }).filter(
        ([h]) => !(headers as string[]).includes(h),
      );
      for (const [, present] of unread) {
        const res = await send(present(mine.key), mine.siteId);
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    });
  });
}
