import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listSessionsRoute } from '@/app/api/auth/sessions/route';
import { createLead } from '@/lib/leads/repo';
import { createLeadInputSchema } from '@/lib/leads/schema';
import { call, createTenant, newSessionToken, OVER_FAST_PATH, runsHere, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { invite, joinedMember } from '@/tests/helpers/members';
import {
  authOf,
  bodySchemaOf,
  documentedOperations,
  propertiesOf,
  rng,
  seededUuid,
  validRequest,
  type Operation,
  type Schema,
} from '@/tests/helpers/openapi-fuzz';
import { createSiteObjects, siteFingerprint } from '@/tests/helpers/site-objects';

useModelForFile();

/**
 * The namespace rule for every operation that takes an object id (path, query or body): with
 * the caller's own credential and site, naming another site's object answers 404 (or 403) —
 * never a success carrying or changing that object — and the other site's data is unchanged.
 * Id fields are found in the OpenAPI document; each must be registered below with the kind of
 * object it names, so a new id-taking route fails here until it is covered.
 */
const ID_FIELDS: Record<string, string> = {
  lead_id: 'lead_id',
  segment_id: 'segment_id',
  sequence_id: 'sequence_id',
  requirement_id: 'requirement_id',
  command_id: 'command_id',
  conversation_id: 'conversation_id',
  session_id: 'session_id',
  previous_session_id: 'session_id',
  visitor_id: 'visitor_id',
  origin_id: 'origin_id',
  app_id: 'app_id',
  /** A platform key (under /api/sites/{site_id}/platform-keys). */
  key_id: 'key_id',
  recipient_id: 'recipient_id',
  /** A message received in the site's mailbox. */
  email_id: 'email_id',
  instance_id: 'instance_id',
  log_id: 'log_id',
  user_id: 'user_id',
  /** `id` names a key under /api/keys and a site under /api/visitors/sites. */
  id: 'id',
  endpoint_id: 'webhook_endpoint_id',
  /** An analytics goal (under /sites/{site_id}/goals). */
  goal_id: 'goal_id',
  annotation_id: 'annotation_id',
  /** A shared dashboard link (under /sites/{site_id}/shared-links). */
  link_id: 'link_id',
  note_id: 'note_id',
  /** The lead merged into the path's lead. */
  other_lead_id: 'lead_id',
  /** A CSV import of leads, and a custom lead property. */
  import_id: 'import_id',
  property_id: 'property_id',
};
const ID_BY_PATH: Record<string, string> = {
  '/api/visitors/sites id': 'site_id',
  '/api/secure-tokens id': '/api/secure-tokens id',
  '/api/secure-tokens/{id}/decrypt id': '/api/secure-tokens/{id}/decrypt id',
  '/api/webhooks id': 'webhook_endpoint_id',
  '/api/webhooks/{id}/ping id': 'webhook_endpoint_id',
  '/api/webhooks/{id}/rotate id': 'webhook_endpoint_id',
  '/api/webhooks/deliveries/{id} id': 'webhook_delivery_id',
  '/api/webhooks/deliveries/{id}/redeliver id': 'webhook_delivery_id',
  '/api/event-subscriptions id': 'event_subscription_id',
  ...Object.fromEntries(
    ['', '/enrollments', '/enrollments/{lead_id}', '/enrollments/{lead_id}/approve'].map((p) => [`/api/sequences/{id}${p} id`, 'sequence_id']),
  ),
  /** A lead enrolled in the sequence. */
  '/api/sequences/{id}/enrollments/{lead_id} lead_id': 'sequence_enrolled_lead_id',
  '/api/sequences/{id}/enrollments/{lead_id}/approve lead_id': 'sequence_enrolled_lead_id',
  '/api/agents/tools/sequences/unenroll lead_id': 'sequence_enrolled_lead_id',
  // Instances are named `id` in their paths.
  ...Object.fromEntries(['', '/logs', '/plans'].map((p) => [`/api/instances/{id}${p} id`, `/api/instances/{id}${p} id`])),
  // Routes that need a running browser take the site's running robot.
  ...Object.fromEntries(
    [
      '/api/instances/{id}/screenshot id',
      '/api/instances/{id}/screenshot log_id',
      '/api/robots/instance/act instance_id',
      '/api/robots/instance/pause instance_id',
    ].map((k) => [k, k]),
  ),
  // A conversation continues with the agent that holds it.
  ...Object.fromEntries(
    ['sales/message', 'customerSupport/message', 'email/reply', 'copywriter/content-editor'].map((p) => [
      `/api/agents/${p} conversation_id`,
      `/api/agents/${p} conversation_id`,
    ]),
  ),
};
const mergeableLead = async (t: Tenant) =>
  (await createLead(t.siteId, createLeadInputSchema.parse({ site_id: t.siteId, name: 'Merged away', email: uniqueEmail() }))).id;
/**
 * Objects only one route takes, made for its case alone (a team's seats are few): an account's
 * other session, a pending invitation, a member who is not the owner.
 */
const OWN_OBJECTS: Record<string, (t: Tenant) => Promise<string>> = {
  '/api/auth/sessions/{id} id': async (t) => {
    const token = await newSessionToken(t.user);
    const listed = await call(listSessionsRoute, { path: '/api/auth/sessions', headers: { authorization: `Bearer ${token}` } });
    return (listed.body.data as { id: string; current: boolean }[]).find((s) => s.current)!.id;
  },
  '/api/sites/{site_id}/invitations/{id} id': (t) => invite(t.user, t.siteId, uniqueEmail(), 'viewer'),
  '/api/sites/{site_id}/members/{user_id} user_id': async (t) => (await joinedMember(t.user, t.siteId, 'viewer')).id,
  // A merge takes the other lead away: a lead of its own for each case.
  ...Object.fromEntries(['/api/leads/{lead_id}/merge', '/api/agents/tools/leads/merge'].map((p) => [`${p} other_lead_id`, mergeableLead])),
};
Object.assign(ID_BY_PATH, Object.fromEntries(Object.keys(OWN_OBJECTS).map((k) => [k, k])));

/** UUID fields that are references the API does not resolve (free labels for the caller's own systems). */
const NOT_OBJECT_IDS = new Set(['campaign_id', 'assignee_id', 'site_id', 'agent_id']);
/**
 * A workflow's body ids are resolved by its run, inside the run's site, after the start answered
 * 202: another site's id fails that run (e.g. LEAD_NOT_FOUND, ROLE_QUERY_NOT_FOUND — the workflow
 * suites cover them), it never reaches the other site's object.
 */
const resolvedByTheRun = (path: string) => path === '/api/workflow/{name}';

interface IdField {
  where: 'path' | 'query' | 'body';
  name: string;
  kind: string | undefined;
}

function idFieldsOf(o: Operation): IdField[] {
  const isId = (name: string, schema: Schema | undefined) =>
    !NOT_OBJECT_IDS.has(name) &&
    !resolvedByTheRun(o.path) &&
    (name === 'id' || name.endsWith('_id')) &&
    JSON.stringify(schema ?? {}).includes('uuid');
  const kindOf = (name: string) => ID_BY_PATH[`${o.path} ${name}`] ?? ID_FIELDS[name];
  const fields: IdField[] = [];
  for (const p of o.op.parameters as Schema[]) {
    if (isId(p.name, p.schema)) fields.push({ where: p.in, name: p.name, kind: kindOf(p.name) });
  }
  const body = bodySchemaOf(o.op);
  if (body?.type === 'application/json') {
    for (const [name, schema] of Object.entries(propertiesOf(body.schema)))
      if (isId(name, schema)) fields.push({ where: 'body', name, kind: kindOf(name) });
  }
  return fields;
}

/** A list answer with nothing in it: a filter naming another site's object finds nothing. */
function emptyList(body: any): boolean {
  const total = body?.total ?? body?.meta?.total;
  return total === 0;
}

let mine: Tenant;
let other: Tenant;
let theirs: Record<string, string>;
/** Everything stored for the other site (not the global user and site counts). */
const otherSite = async () => {
  const { counts: _global, ...rows } = await siteFingerprint([other.siteId]);
  return rows;
};

beforeAll(async () => {
  // Every case creates keys, apps and secrets on the same two sites: room beyond the Basic plan's caps.
  process.env.PLAN_CAPS = JSON.stringify({
    basic: { api_keys_per_site: 10_000, platform_apps_per_site: 10_000, secrets_per_site: 10_000, members_per_site: 10_000 },
  });
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  theirs = await createSiteObjects(other);
  for (const [key, make] of Object.entries(OWN_OBJECTS)) theirs[key] = await make(other);
});

describe("object swap: another site's object by id", () => {
  const cases = documentedOperations()
    .filter((o) => runsHere(o.path))
    .flatMap((o) => idFieldsOf(o).map((field) => ({ o, field })));

  it('finds the id-taking operations and every id field is registered', () => {
    expect(cases.length).toBeGreaterThan(OVER_FAST_PATH ? 5 : 20);
    const unregistered = cases.filter((c) => !c.field.kind).map((c) => `${c.o.method} ${c.o.path} ${c.field.where}.${c.field.name}`);
    expect(unregistered, 'register these id fields in ID_FIELDS (or NOT_OBJECT_IDS)').toEqual([]);
  });

  it.each(cases.map((c) => [`${c.o.method} ${c.o.path} ${c.field.where}.${c.field.name}`, c] as const))(
    '%s',
    { timeout: 60_000 },
    async (_label, { o, field }) => {
      const kind = authOf(o.op).kind;
      const before = await otherSite();
      let controlPassed = false;
      for (let attempt = 0; attempt < 8 && !controlPassed; attempt++) {
        // Fresh objects of the caller's site each attempt: the control request may change or delete them.
        const ours = await createSiteObjects(mine);
        if (field.kind && OWN_OBJECTS[field.kind]) ours[field.kind] = await OWN_OBJECTS[field.kind](mine);
        const credential = kind === 'session' ? mine.user.token : kind === 'platformKey' ? ours.platform_key : mine.key;
        const request = (ids: Record<string, string>) => {
          const req = validRequest(o, rng(attempt * 7919 + 1), ours, credential);
          const set =
            field.where === 'path'
              ? req.params!
              : field.where === 'query'
                ? (req.query as Record<string, string>)
                : (req.body as Record<string, unknown>);
          set[field.name] = ids[field.kind!];
          return req;
        };
        const swapped = await call(o.handler, { method: o.method, path: o.path, ...request(theirs) });
        const text = JSON.stringify(swapped.body);
        expect(swapped.status, text.slice(0, 300)).toBeLessThan(500);
        expect(text, 'the answer carries the other site').not.toContain(other.siteId);
        // A refusal that does not tell "exists elsewhere" from "does not exist": the same answer as for an unknown id.
        const unknown = await call(o.handler, { method: o.method, path: o.path, ...request({ [field.kind!]: seededUuid(rng(attempt)) }) });
        const sameAsUnknown = swapped.status >= 400 && swapped.status === unknown.status && swapped.body?.error?.code === unknown.body?.error?.code;
        const refused = swapped.status === 404 || swapped.status === 403 || sameAsUnknown;
        const isFilter = swapped.status === 200 && emptyList(swapped.body);
        expect(refused || isFilter || swapped.status === 400, `another site's ${field.kind} answered ${swapped.status}: ${text.slice(0, 300)}`).toBe(
          true,
        );
        // The same request with the caller's own object must succeed, or the refusal above proves nothing.
        const control = await call(o.handler, { method: o.method, path: o.path, ...request(ours) });
        controlPassed = control.status < 300;
        if (controlPassed) expect(refused || isFilter, `another site's ${field.kind} got ${swapped.status}: ${text.slice(0, 300)}`).toBe(true);
      }
      expect(controlPassed, 'no generated request succeeded with the caller’s own object').toBe(true);
      expect(await otherSite(), "the other site's data changed").toEqual(before);
    },
  );
});
