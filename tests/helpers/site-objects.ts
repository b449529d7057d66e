import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { insertInbound } from '@/lib/email/repo';
import type { RouteHandler } from '@/lib/http/define-route';
import { presenters } from './auth-matrix';
import { call, createKey, uniqueEmail, type CallOptions, type Tenant } from './harness';
import { createApp, createPlatformKey } from './platform';

/** The handler the manifest serves for `METHOD path` (path as in OpenAPI, e.g. `/sites/{site_id}`). */
export function routeOf(method: string, path: string): RouteHandler {
  const handler = routeManifest.find((r) => r.path === path)?.module[method];
  if (!handler) throw new Error(`no route ${method} ${path}`);
  return handler as RouteHandler;
}

async function created(method: string, path: string, o: Omit<CallOptions, 'method' | 'path'>): Promise<any> {
  const res = await call(routeOf(method, path), { method, path, ...o });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const AGENT_MESSAGES: Record<string, Record<string, string>> = {
  '/api/agents/cmo/message': { message: 'Hello' },
  '/api/agents/sales/message': { message: 'Hello' },
  '/api/agents/customerSupport/message': { message: 'Hello' },
  '/api/agents/email/reply': { from: 'ada@example.com', subject: 'Hello', text: 'Hello' },
  '/api/agents/copywriter/content-editor': { content: 'Hello', instruction: 'Shorter' },
};

/**
 * One object of every kind a site owns (agent messages and commands need a model: the file runs
 * with `useModelForFile()` of ./llm-standin), created through the real routes, by the name its id
 * has in paths, queries and bodies (`lead_id`, `session_id`, `id` for an API key …).
 */
/** A message received in the site's mailbox (as the sync stores it), not answered yet. */
export async function insertReceivedEmail(siteId: string) {
  const row = await insertInbound(siteId, {
    mailboxKey: `1:${randomBytes(4).readUInt32BE()}`,
    fromAddress: uniqueEmail(),
    toAddresses: ['inbox@example.com'],
    subject: 'Question',
    textBody: 'Do you deliver?',
    messageId: `<${randomBytes(6).toString('hex')}@example.com>`,
    inReplyTo: null,
    kind: 'message',
    leadId: null,
    conversationId: null,
  });
  return row!;
}

export async function createSiteObjects(t: Tenant): Promise<Record<string, string>> {
  const key = { authorization: `Bearer ${t.key}` };
  const lead = await created('POST', '/api/agents/tools/leads/create', {
    headers: key,
    body: { site_id: t.siteId, name: 'Ada', email: uniqueEmail() },
  });
  const segment = await created('POST', '/api/agents/tools/segments/create', { headers: key, body: { site_id: t.siteId, name: 'SMB' } });
  const requirement = await created('POST', '/api/agents/tools/requirements/create', {
    headers: key,
    body: { site_id: t.siteId, title: 'Write posts' },
  });
  const command = await created('POST', '/sites/{site_id}/commands', {
    params: { site_id: t.siteId },
    headers: presenters.xApiKey(t.key),
    body: { task: 'Audit' },
  });
  const session = await created('POST', '/api/visitors/session', {
    headers: presenters.xSaApiKey(t.key),
    body: { site_id: t.siteId, fingerprint: `fp-${randomBytes(6).toString('hex')}` },
  });
  const origin = await created('POST', '/api/sites/{site_id}/origins', {
    params: { site_id: t.siteId },
    headers: t.user.auth,
    body: { origin: `https://${randomBytes(4).toString('hex')}.example.com` },
  });
  // A conversation belongs to one agent: one per agent route, under `<path> conversation_id`.
  const agentConversations: Record<string, string> = {};
  for (const [path, body] of Object.entries(AGENT_MESSAGES)) {
    const started = await created('POST', path, { headers: key, body: { site_id: t.siteId, ...body } });
    agentConversations[`${path} conversation_id`] = started.data.conversation_id;
  }
  // A robot instance (a record: no browser is started) with one log entry.
  const instance = await created('POST', '/api/instances', { headers: key, body: { site_id: t.siteId, user_id: t.user.id, name: 'Robot' } });
  const instanceLog = await created('POST', '/api/instances/{id}/logs', {
    params: { id: instance.data.id },
    headers: key,
    body: { log_type: 'system', message: 'Created for the test' },
  });
  // Routes that delete an instance get one of their own, so the others keep theirs.
  const [disposable, disposableToo] = await Promise.all(
    [1, 2].map(() => created('POST', '/api/instances', { headers: key, body: { site_id: t.siteId, user_id: t.user.id, name: 'Disposable robot' } })),
  );
  const robot = await runningRobot(t);
  const spareKey = await createKey(t.user, t.siteId, ['read']);
  // A generated app with a platform key holding every capability (the credential of platform routes),
  // a spare platform key, and a pending test recipient with the code mailed to it (read from the outbox).
  const app = await createApp(t);
  const [platform, sparePlatformKey] = await Promise.all([createPlatformKey(t, app.id), createPlatformKey(t, app.id, ['leads.read'])]);
  const recipientEmail = uniqueEmail();
  const recipient = await created('POST', '/api/sites/{site_id}/email-recipients', {
    params: { site_id: t.siteId },
    headers: t.user.auth,
    body: { email: recipientEmail },
  });
  const outbox = await created('GET', '/api/sites/{site_id}/emails', { params: { site_id: t.siteId }, headers: t.user.auth, query: { limit: 100 } });
  const code = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(outbox.data.find((m: { to: string[] }) => m.to[0] === recipientEmail).text)![1];
  // A message received in the site's mailbox, for the routes that answer one.
  const received = await insertReceivedEmail(t.siteId);
  const secureToken = await created('POST', '/api/secure-tokens', {
    headers: presenters.xApiKey(t.key),
    body: { site_id: t.siteId, type: 'api_key', identifier: `token-${randomBytes(4).toString('hex')}`, value: 'site-object-secret' },
  });
  // A webhook endpoint at a public address (no worker delivers in these suites), a delivery (its ping) and an inbound subscription.
  // A site has a capped number of endpoints: two per site, reused by every call — the oldest for the
  // routes that read or ping one, the other for DELETE (created again once deleted).
  const existing = ((await created('GET', '/api/webhooks', { headers: key, query: { site_id: t.siteId } })).data as { id: string }[]).reverse();
  const newEndpoint = () =>
    created('POST', '/api/webhooks', { headers: key, body: { site_id: t.siteId, url: 'https://93.184.216.34/hook', events: ['lead.created'] } });
  const endpoint = existing[0] ? { data: existing[0] } : await newEndpoint();
  const deletable = existing[1] ? { data: existing[1] } : await newEndpoint();
  const ping = await created('POST', '/api/webhooks/{id}/ping', { params: { id: endpoint.data.id }, headers: key, body: { site_id: t.siteId } });
  const subscription = await created('POST', '/api/event-subscriptions', {
    headers: key,
    body: { site_id: t.siteId, table: 'leads', event_types: ['INSERT'], workflow: 'dailyStandUp' },
  });
  // A sequence with a lead enrolled in it (no worker sends in these suites).
  const sequence = await created('POST', '/api/sequences', {
    headers: key,
    body: { site_id: t.siteId, name: 'Welcome', steps: [{ delay_minutes: 60, subject: 'Hi {{first_name|there}}', body: 'Hello.' }] },
  });
  const enrolledLead = await created('POST', '/api/agents/tools/leads/create', {
    headers: key,
    body: { site_id: t.siteId, name: 'Enrolled', email: uniqueEmail() },
  });
  await created('POST', '/api/sequences/{id}/enrollments', {
    params: { id: sequence.data.id },
    headers: key,
    body: { site_id: t.siteId, lead_ids: [enrolledLead.lead.id] },
  });
  // A site has a capped number of goals: one, made once and reused by every call.
  const goals = await created('GET', '/sites/{site_id}/goals', { params: { site_id: t.siteId }, headers: presenters.xApiKey(t.key) });
  const goal = goals.data.goals[0]
    ? { data: goals.data.goals[0] }
    : await created('POST', '/sites/{site_id}/goals', {
        params: { site_id: t.siteId },
        headers: presenters.xApiKey(t.key),
        body: { name: `Purchase ${Math.random().toString(36).slice(2, 8)}`, type: 'conversion', match: 'purchase' },
      });
  // Its enrollment holds an agent's draft for review, as an agent-drafted step's job leaves it (approve takes it).
  await (
    await getDb()
  )
    .update(sequenceEnrollments)
    .set({ draft: { step: 0, subject: 'Hi', body: 'Hello.', approved: false, created_at: new Date().toISOString() }, nextSendAt: null })
    .where(eq(sequenceEnrollments.leadId, enrolledLead.lead.id));
  const annotation = await created('POST', '/sites/{site_id}/annotations', {
    params: { site_id: t.siteId },
    headers: presenters.xApiKey(t.key),
    body: { date: '2026-11-02', text: 'Newsletter sent' },
  });
  // A site has a capped number of shared links: one, made once and reused by every call.
  const links = await created('GET', '/sites/{site_id}/shared-links', { params: { site_id: t.siteId }, headers: presenters.xApiKey(t.key) });
  const sharedLink = links.data[0]
    ? { data: links.data[0] }
    : await created('POST', '/sites/{site_id}/shared-links', {
        params: { site_id: t.siteId },
        headers: presenters.xApiKey(t.key),
        body: { label: 'Investors' },
      });
  // A note on the lead; a lead and a visitor of their own for erasure, and a lead to merge into the site's lead.
  const note = await created('POST', '/api/leads/{lead_id}/notes', {
    params: { lead_id: lead.lead.id },
    headers: presenters.xApiKey(t.key),
    body: { site_id: t.siteId, body: 'Called: wants a demo' },
  });
  const [erasable, mergeable, mergeableToo] = await Promise.all(
    ['Erasable', 'Mergeable', 'Mergeable too'].map((name) =>
      created('POST', '/api/agents/tools/leads/create', { headers: key, body: { site_id: t.siteId, name, email: uniqueEmail() } }),
    ),
  );
  const erasableVisit = await created('POST', '/api/visitors/session', {
    headers: presenters.xSaApiKey(t.key),
    body: { site_id: t.siteId, fingerprint: `fp-${randomBytes(6).toString('hex')}` },
  });
  // A lead import (one row) and a custom lead property.
  const csv = new FormData();
  csv.set('file', new File([`email,name\n${uniqueEmail()},Imported\n`], 'leads.csv', { type: 'text/csv' }));
  const leadImport = await created('POST', '/api/leads/import', { headers: presenters.xApiKey(t.key), query: { site_id: t.siteId }, form: csv });
  // A site has a capped number of custom properties: one, made once and reused by every call.
  const properties = await created('GET', '/api/leads/properties', { headers: presenters.xApiKey(t.key), query: { site_id: t.siteId } });
  const leadProperty = properties.data[0]
    ? { data: properties.data[0] }
    : await created('POST', '/api/leads/properties', {
        headers: presenters.xApiKey(t.key),
        body: { site_id: t.siteId, key: `p_${randomBytes(4).toString('hex')}`, label: 'Plan', type: 'text' },
      });
  const ids: Record<string, string> = {
    site_id: t.siteId,
    goal_id: goal.data.id,
    annotation_id: annotation.data.id,
    link_id: sharedLink.data.id,
    import_id: leadImport.data.import_id,
    property_id: leadProperty.data.property_id,
    user_id: t.user.id,
    lead_id: lead.lead.id,
    segment_id: segment.segment.segment_id,
    requirement_id: requirement.requirement.requirement_id,
    command_id: command.data.command_id,
    conversation_id: agentConversations['/api/agents/cmo/message conversation_id'],
    ...agentConversations,
    session_id: session.data.session_id,
    previous_session_id: session.data.session_id,
    visitor_id: session.data.visitor_id,
    origin_id: origin.data.id,
    instance_id: instance.data.id,
    log_id: instanceLog.data.id,
    // Instances are `id` in their paths; the routes that need a running browser (and a screenshot) get one.
    ...Object.fromEntries(['/logs', '/plans'].map((p) => [`/api/instances/{id}${p} id`, instance.data.id])),
    '/api/instances/{id} id': disposable.data.id,
    '/api/robots/instance/delete instance_id': disposableToo.data.id,
    '/api/instances/{id}/screenshot id': robot.instanceId,
    '/api/instances/{id}/screenshot log_id': robot.logId,
    '/api/robots/instance/act instance_id': robot.instanceId,
    '/api/robots/instance/pause instance_id': robot.instanceId,
    id: spareKey.id,
    app_id: app.id,
    key_id: sparePlatformKey.id,
    recipient_id: recipient.data.id,
    email_id: received.id,
    // The answer's own text: the site's received message has no finished draft of the email agent.
    '/api/sites/{site_id}/emails/{email_id}/reply text': 'Yes, every Tuesday.',
    '/api/sites/{site_id}/email-recipients/{recipient_id}/verify code': code,
    /** Not an id: the platform key of the site's app, for the platform routes. */
    platform_key: platform.platformKey,
    // `id` of the secure-token routes names a secret.
    '/api/secure-tokens id': secureToken.data.id,
    '/api/secure-tokens/{id}/decrypt id': secureToken.data.id,
    webhook_endpoint_id: endpoint.data.id,
    webhook_delivery_id: ping.data.delivery_id,
    event_subscription_id: subscription.data.id,
    endpoint_id: endpoint.data.id,
    // `id` of the webhook routes names their own objects; values that only these routes take.
    '/api/webhooks id': deletable.data.id,
    '/api/webhooks/{id}/ping id': endpoint.data.id,
    '/api/webhooks/{id}/rotate id': endpoint.data.id,
    '/api/webhooks/deliveries/{id} id': ping.data.delivery_id,
    '/api/webhooks/deliveries/{id}/redeliver id': ping.data.delivery_id,
    '/api/event-subscriptions id': subscription.data.id,
    '/api/webhooks url': 'https://93.184.216.34/hook',
    '/api/event-subscriptions workflow': 'dailyStandUp',
    note_id: note.data.id,
    '/api/leads/{lead_id} lead_id': erasable.lead.id,
    '/api/leads/{lead_id}/merge other_lead_id': mergeable.lead.id,
    '/api/agents/tools/leads/merge other_lead_id': mergeableToo.lead.id,
    '/api/visitors/{visitor_id} visitor_id': erasableVisit.data.visitor_id,
    sequence_id: sequence.data.id,
    sequence_enrolled_lead_id: enrolledLead.lead.id,
    // `id` of the sequence routes names a sequence; the enrollment routes take the site's leads.
    ...Object.fromEntries(
      ['', '/enrollments', '/enrollments/{lead_id}', '/enrollments/{lead_id}/approve'].map((p) => [`/api/sequences/{id}${p} id`, sequence.data.id]),
    ),
    '/api/sequences/{id}/enrollments/{lead_id} lead_id': enrolledLead.lead.id,
    '/api/sequences/{id}/enrollments/{lead_id}/approve lead_id': enrolledLead.lead.id,
    '/api/agents/tools/sequences/unenroll lead_id': enrolledLead.lead.id,
    '/api/sequences/{id}/enrollments lead_ids': lead.lead.id,
  };
  for (const [name, value] of Object.entries(ids)) if (typeof value !== 'string') throw new Error(`no ${name} in the created objects`);
  return ids;
}

/**
 * One running robot per site (a real browser context), with a screenshot: started once, resumed
 * when a request paused or stopped it, started again when one deleted it.
 */
const robots = new Map<string, { instanceId: string; logId: string }>();
async function runningRobot(t: Tenant): Promise<{ instanceId: string; logId: string }> {
  const key = { authorization: `Bearer ${t.key}` };
  const known = robots.get(t.siteId);
  if (known) {
    const res = await call(routeOf('GET', '/api/instances/{id}'), {
      path: `/api/instances/${known.instanceId}`,
      params: { id: known.instanceId },
      headers: key,
    });
    if (res.status === 200 && res.body.data.status === 'running') return known;
    if (res.status === 200) {
      await created('POST', '/api/robots/instance/resume', { headers: key, body: { instance_id: known.instanceId } });
      return known;
    }
  }
  const started = await created('POST', '/api/robots/instance', { headers: key, body: { site_id: t.siteId, activity: 'Test robot' } });
  const instanceId = started.data.instance.id;
  const acted = await created('POST', '/api/robots/instance/act', {
    headers: key,
    body: { instance_id: instanceId, message: 'snap', actions: [{ type: 'screenshot' }] },
  });
  const robot = { instanceId, logId: acted.data.executed[0].log_id };
  robots.set(t.siteId, robot);
  return robot;
}

/**
 * Tables whose rows belong to a site (by `site_id`), except the logs a refused request writes on
 * purpose: key usage, the platform API's audit log and quota counters, and the secure-token audit.
 */
async function siteTables(): Promise<string[]> {
  const db = await getDb();
  const res = (await db.execute(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = 'site_id' and table_name not in ('api_keys', 'api_key_usage', 'platform_audit_log', 'platform_quota_usage', 'secure_token_audit')
    order by table_name`)) as unknown as { rows: { table_name: string }[] };
  return res.rows.map((r) => r.table_name);
}

let tables: Promise<string[]> | undefined;

/** Columns that count refused requests by design (a wrong verification code counts an attempt). */
const COUNTERS_OF_REFUSALS: Record<string, string> = { email_recipients: 'failed_attempts' };

/**
 * A fingerprint of everything stored for these sites: every row of every site table, the site
 * rows themselves (settings), and the number of users and sites. Equal fingerprints before and
 * after a request mean it wrote nothing there.
 */
export async function siteFingerprint(siteIds: string[]): Promise<Record<string, string>> {
  const db = await getDb();
  const names = await (tables ??= siteTables());
  const ids = sql.join(
    siteIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const parts = [
    ...names.map((name) => {
      const row = COUNTERS_OF_REFUSALS[name] ? sql`(to_jsonb(x) - ${COUNTERS_OF_REFUSALS[name]}::text)::text` : sql`x::text`;
      return sql`select ${name} as t, count(*)::text || ':' || md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from ${sql.identifier(name)} x where site_id in (${ids})`;
    }),
    sql`select 'sites' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from sites x where id in (${ids})`,
    sql`select 'counts' as t, (select count(*) from users)::text || '/' || (select count(*) from sites)::text as h`,
  ];
  const res = (await db.execute(sql.join(parts, sql` union all `))) as unknown as { rows: { t: string; h: string }[] };
  return Object.fromEntries(res.rows.map((r) => [r.t, r.h]));
}
