import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as subscribeRoute, GET as listSubscriptionsRoute, DELETE as unsubscribeRoute } from '@/app/api/event-subscriptions/route';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { POST as pingRoute } from '@/app/api/webhooks/[id]/ping/route';
import { POST as rotateRoute } from '@/app/api/webhooks/[id]/rotate/route';
import { POST as redeliverRoute } from '@/app/api/webhooks/deliveries/[id]/redeliver/route';
import { GET as deliveryRoute } from '@/app/api/webhooks/deliveries/[id]/route';
import { GET as deliveriesRoute } from '@/app/api/webhooks/deliveries/route';
import { DELETE as deleteEndpointRoute, GET as listEndpointsRoute, POST as createEndpointRoute } from '@/app/api/webhooks/route';
import { POST as changeEventRoute } from '@/app/api/workflow/webhook/route';
import { resetConfig } from '@/lib/core/config';
import { overrideProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { outboundEvents, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { updateEndpoint } from '@/lib/webhooks/service';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { until } from '@/tests/helpers/wait';
import { startReceiver, type Receiver } from '@/tests/helpers/webhook-receiver';
import { startWorkflow } from '@/tests/helpers/workflow-runs';

/**
 * Events and webhooks end to end: endpoints through the routes, events written with the change
 * that causes them, a real delivery worker POSTing to a local receiver, signatures checked with
 * the `standardwebhooks` package (an implementation of the scheme that is not ours).
 */
const auth = (t: Tenant, key = t.key) => ({ authorization: `Bearer ${key}` });

let mine: Tenant;
let other: Tenant;
let receiver: Receiver;
let engine: EmbeddedEngine;
let worker: BackgroundWork;
let restore: () => void;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
  process.env.WEBHOOK_POLL_MS = '50';
  // Retries after 0.2 s, 0.2 s, 0.4 s, 0.4 s (±20 %): the production schedule, compressed.
  process.env.WEBHOOK_RETRY_DELAYS = '0.2,0.2,0.4,0.4';
  process.env.WORKFLOW_POLL_SECONDS = '0.5';
  resetConfig();
  engine = new EmbeddedEngine();
  worker = await startBackgroundWork();
  restore = overrideProviders({ workflowEngine: engine });
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  restore?.();
  await worker?.stop();
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  delete process.env.WEBHOOK_POLL_MS;
  delete process.env.WEBHOOK_RETRY_DELAYS;
  delete process.env.WORKFLOW_POLL_SECONDS;
  resetConfig();
});

async function createEndpoint(t: Tenant, path: string, events: string[]) {
  const res = await call(createEndpointRoute, {
    method: 'POST',
    path: '/api/webhooks',
    headers: auth(t),
    body: { site_id: t.siteId, url: receiver.url(path), events },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function deliveriesOf(t: Tenant, endpointId: string) {
  const res = await call(deliveriesRoute, {
    path: '/api/webhooks/deliveries',
    headers: auth(t),
    query: { site_id: t.siteId, endpoint_id: endpointId },
  });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; event_id: string; status: string; attempts: number }[];
}

/** Creates a lead through the agents' tool route: the change that writes a `lead.created` event. */
const createLead = (t: Tenant, body: Record<string, unknown>) =>
  call(createLeadRoute, { method: 'POST', path: '/api/agents/tools/leads/create', headers: auth(t), body });
const deliveryDetail = (t: Tenant, id: string) =>
  call(deliveryRoute, { path: `/api/webhooks/deliveries/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } });

/** A POST to an action on one webhook object (path param `id`) by tenant `t`, naming its site. */
const postAs = (t: Tenant, handler: Parameters<typeof call>[0], path: string, id: string, body: Record<string, unknown> = {}) =>
  call(handler, { method: 'POST', path, params: { id }, headers: auth(t), body: { site_id: t.siteId, ...body } });

const listEndpoints = (t: Tenant) => call(listEndpointsRoute, { path: '/api/webhooks', headers: auth(t), query: { site_id: t.siteId } });
const deleteEndpoint = (t: Tenant, id: string) =>
  call(deleteEndpointRoute, { method: 'DELETE', path: '/api/webhooks', headers: auth(t), query: { site_id: t.siteId, id } });

const subscribe = (t: Tenant, body: Record<string, unknown>) =>
  call(subscribeRoute, { method: 'POST', path: '/api/event-subscriptions', headers: auth(t), body });

const verify = (secret: string, r: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

describe('endpoints', () => {
  it('creates an endpoint with a secret shown once, lists it without, deletes it', async () => {
    const created = await createEndpoint(mine, '/crud', ['lead.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await call(listEndpointsRoute, { path: '/api/webhooks', headers: auth(mine, mine.readKey), query: { site_id: mine.siteId } });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: created.id, events: ['lead.created'], active: true, status: 'healthy' })]);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    // Stored encrypted, never in clear.
    const db = await getDb();
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(row.secretEncrypted).not.toContain(created.secret.slice(6));

    const foreign = await deleteEndpoint(other, created.id);
    expect(foreign.status).toBe(404);
    const gone = await deleteEndpoint(mine, created.id);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: created.id, deleted: true });
  });

  it.each([
    ['http to a host not allowed', 'http://example.com/hook'],
    ['a private address', 'https://10.0.0.7/hook'],
    ['the metadata address in decimal', 'https://2852039166/'],
    ['a loopback name', 'https://localhost/hook'],
    ['not http', 'ftp://example.com/'],
    ['not a URL', 'hook'],
  ])('refuses %s (400, nothing stored)', async (_label, url) => {
    const res = await call(createEndpointRoute, {
      method: 'POST',
      path: '/api/webhooks',
      headers: auth(other),
      body: { site_id: other.siteId, url, events: ['lead.created'] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    const db = await getDb();
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.siteId, other.siteId))).toEqual([]);
  });

  it('refuses an unknown event type and a read-only key', async () => {
    const bad = await call(createEndpointRoute, {
      method: 'POST',
      path: '/api/webhooks',
      headers: auth(mine),
      body: { site_id: mine.siteId, url: receiver.url('/x'), events: ['lead.exploded'] },
    });
    expect(bad.status).toBe(400);
    const readOnly = await call(createEndpointRoute, {
      method: 'POST',
      path: '/api/webhooks',
      headers: auth(mine, mine.readKey),
      body: { site_id: mine.siteId, url: receiver.url('/x'), events: ['lead.created'] },
    });
    expect(readOnly.status).toBe(403);
  });
});

describe('outbound delivery', () => {
  it('delivers a completed workflow once, signed per Standard Webhooks', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/completed', ['workflow.completed']);
    const started = await startWorkflow(t, 'dailyStandUp');
    expect(started.status).toBe(202);
    const [got] = await receiver.waitFor('/completed', 1);
    const payload = verify(endpoint.secret, got) as Record<string, any>;
    expect(payload).toMatchObject({
      id: got.headers['webhook-id'],
      type: 'workflow.completed',
      site_id: t.siteId,
      data: { workflow_id: started.body.workflowId, workflow_type: 'dailyStandUpWorkflow', status: 'COMPLETED' },
    });
    expect(new Date(payload.created_at).toISOString()).toBe(payload.created_at);
    expect(got.headers['content-type']).toBe('application/json');
    // A tampered body or another secret does not verify.
    expect(() => verify(endpoint.secret, { ...got, body: got.body.replace('COMPLETED', 'FAILED') })).toThrow();
    expect(() => verify('whsec_' + Buffer.alloc(24, 1).toString('base64'), got)).toThrow();

    const [delivery] = await until('the delivery to succeed', async () => {
      const list = await deliveriesOf(t, endpoint.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery).toMatchObject({ event_id: got.headers['webhook-id'], attempts: 1 });
    // Once: nothing more arrives for it.
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received('/completed')).toHaveLength(1);
  });

  it('retries a receiver that fails 3 times: one accepted delivery, every attempt recorded, same webhook-id', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/flaky', ['lead.created']);
    receiver.script('/flaky', [500, 503, 429]);
    const lead = await createLead(t, { site_id: t.siteId, name: 'Ada', email: 'ada@acme.io' });
    expect(lead.status).toBe(201);
    const got = await receiver.waitFor('/flaky', 4);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of got) expect(verify(endpoint.secret, r)).toMatchObject({ type: 'lead.created', data: { lead: { email: 'ada@acme.io' } } });

    const [delivery] = await until('the delivery to succeed', async () => {
      const list = await deliveriesOf(t, endpoint.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery.attempts).toBe(4);
    const detail = await deliveryDetail(t, delivery.id);
    expect(detail.status).toBe(200);
    expect(detail.body.data.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503, 429, 200]);
    expect(detail.body.data.attempt_log[0]).toMatchObject({
      attempt: 1,
      error: 'answered 500',
      response_body: 'nope',
      duration_ms: expect.any(Number),
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received('/flaky')).toHaveLength(4);
  });

  it('marks the endpoint failing when the retries run out; a redelivery sends the same webhook-id and heals it', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/down', ['lead.created']);
    receiver.script('/down', [500, 500, 500, 500, 500]);
    await createLead(t, { site_id: t.siteId, name: 'Bob', email: 'bob@acme.io' });
    const [delivery] = await until('the delivery to fail', async () => {
      const list = await deliveriesOf(t, endpoint.id);
      return list[0]?.status === 'failed' && list;
    });
    expect(delivery.attempts).toBe(5);
    const listed = await listEndpoints(t);
    expect(listed.body.data[0]).toMatchObject({ status: 'failing', failing_since: expect.any(String) });

    const foreign = await postAs(other, redeliverRoute, `/api/webhooks/deliveries/${delivery.id}/redeliver`, delivery.id);
    expect(foreign.status).toBe(404);
    const again = await postAs(t, redeliverRoute, `/api/webhooks/deliveries/${delivery.id}/redeliver`, delivery.id);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ event_id: delivery.event_id, status: 'pending' });
    const got = await receiver.waitFor('/down', 6);
    expect(got[5].headers['webhook-id']).toBe(delivery.event_id);
    await until('the endpoint to heal', async () => {
      const res = await listEndpoints(t);
      return res.body.data[0].status === 'healthy';
    });
  });

  it('pings an endpoint; a rotated secret and the old one both sign during the grace period', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/ping', ['lead.updated']);
    const rotated = await postAs(t, rotateRoute, `/api/webhooks/${endpoint.id}/rotate`, endpoint.id, { grace_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    expect(rotated.body.data.previous_secret_expires_at).toEqual(expect.any(String));
    const ping = await postAs(t, pingRoute, `/api/webhooks/${endpoint.id}/ping`, endpoint.id);
    expect(ping.status).toBe(202);
    const [got] = await receiver.waitFor('/ping', 1);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.body.data.secret, got)).toMatchObject({ type: 'webhook.ping', id: ping.body.data.event_id });
    expect(verify(endpoint.secret, got)).toMatchObject({ type: 'webhook.ping' });
    const foreign = await postAs(other, pingRoute, `/api/webhooks/${endpoint.id}/ping`, endpoint.id);
    expect(foreign.status).toBe(404);
  });

  it("shows the last answer as the endpoint's health: a ping answered 404 makes it failing at once, a 2xx heals it; its events can change", async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/gone', ['lead.created']);
    receiver.script('/gone', [404, 200]);
    const listed = async () => (await listEndpoints(t)).body.data[0];
    expect(await listed()).toMatchObject({ status: 'healthy', failing_since: null });
    const ping = () => postAs(t, pingRoute, `/api/webhooks/${endpoint.id}/ping`, endpoint.id);
    expect((await ping()).status).toBe(202);
    await until('the endpoint to be failing after one 404', async () => (await listed()).status === 'failing');
    const [delivery] = await deliveriesOf(t, endpoint.id);
    expect(delivery).toMatchObject({ last_status_code: 404 });
    await until('the retry to heal it', async () => (await listed()).status === 'healthy');
    expect((await listed()).failing_since).toBeNull();

    await expect(updateEndpoint(other.siteId, endpoint.id, { events: ['lead.updated'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const changed = await updateEndpoint(t.siteId, endpoint.id, {
      events: ['lead.updated', 'session.ended'],
      description: 'CRM sync',
      active: false,
    });
    expect(changed).toMatchObject({ events: ['lead.updated', 'session.ended'], description: 'CRM sync', active: false });
    expect(await listed()).toMatchObject({ events: ['lead.updated', 'session.ended'], description: 'CRM sync', active: false });
  });

  it('writes the event with the change, and nothing when the change is refused', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/atomic', ['lead.created']);
    receiver.script('/atomic', ['hang', 'hang', 'hang', 'hang', 'hang']);
    const db = await getDb();
    const body = { site_id: t.siteId, name: 'Cy', email: 'cy@acme.io' };
    expect((await createLead(t, body)).status).toBe(201);
    expect((await createLead(t, body)).status).toBe(409);
    const events = await db.select().from(outboundEvents).where(eq(outboundEvents.siteId, t.siteId));
    expect(events.map((e) => e.type)).toEqual(['lead.created']);
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.siteId, t.siteId), eq(webhookDeliveries.endpointId, endpoint.id)));
    expect(deliveries).toHaveLength(1);
    // Deleting the endpoint drops its pending deliveries.
    await deleteEndpoint(t, endpoint.id);
  });

  it('does not deliver to an endpoint whose address became refused', async () => {
    const t = await createTenant();
    const endpoint = await createEndpoint(t, '/later-refused', ['lead.created']);
    process.env.OUTBOUND_ALLOW_HOSTS = '';
    resetConfig();
    try {
      await createLead(t, { site_id: t.siteId, name: 'Di', email: 'di@acme.io' });
      const [delivery] = await until('an attempt', async () => {
        const list = await deliveriesOf(t, endpoint.id);
        return list[0]?.attempts >= 1 && list;
      });
      const detail = await deliveryDetail(t, delivery.id);
      expect(detail.body.data.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/non-public address/) });
      expect(receiver.received('/later-refused')).toHaveLength(0);
    } finally {
      process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
      resetConfig();
      await deleteEndpoint(t, endpoint.id);
    }
  });
});

describe('inbound change events', () => {
  it('a subscribed INSERT starts the workflow; other sites’ records are refused; unknown tables dispatch nothing', async () => {
    const t = await createTenant();
    const sub = await subscribe(t, {
      site_id: t.siteId,
      table: 'leads',
      event_types: ['INSERT'],
      workflow: 'dailyStandUp',
      input: { window_hours: 48 },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    expect(sub.body.data).toMatchObject({ table: 'leads', event_types: ['INSERT'], workflow: 'dailyStandUp', active: true });
    const listed = await call(listSubscriptionsRoute, { path: '/api/event-subscriptions', headers: auth(t), query: { site_id: t.siteId } });
    expect(listed.body.data).toHaveLength(1);

    const record = { id: randomUUID(), site_id: t.siteId, email: 'eve@acme.io' };
    const event = { type: 'INSERT', table: 'leads', schema: 'public', record, old_record: null };
    const res = await call(changeEventRoute, {
      method: 'POST',
      path: '/api/workflow/webhook',
      headers: auth(t),
      body: { site_id: t.siteId, ...event },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      success: true,
      async: true,
      dispatched: [{ subscription_id: sub.body.data.id, workflow: 'dailyStandUp', workflowId: expect.stringMatching(/^daily-stand-up-/) }],
    });
    const logs = await call(logsRoute, { path: '/api/logs/workflows', headers: auth(t), query: { site_id: t.siteId, limit: 10 } });
    const types = logs.body.workflows.map((w: { workflowId: string; type: string; input: Record<string, unknown> }) => [
      w.workflowId,
      w.type,
      w.input,
    ]);
    expect(types).toContainEqual([res.body.dispatched[0].workflowId, 'dailyStandUpWorkflow', { site_id: t.siteId, window_hours: 48 }]);
    expect(types).toContainEqual([res.body.event_workflow_id, 'webhookWorkflow', expect.objectContaining({ table: 'leads', type: 'INSERT' })]);

    // An UPDATE is not subscribed; a table nobody subscribes to: accepted, nothing dispatched.
    for (const body of [
      { ...event, type: 'UPDATE' },
      { ...event, table: 'invoices' },
    ]) {
      const quiet = await call(changeEventRoute, { method: 'POST', path: '/api/workflow/webhook', headers: auth(t), body });
      expect(quiet.status).toBe(202);
      expect(quiet.body.dispatched).toEqual([]);
    }
    // A record of another site.
    for (const body of [
      { ...event, record: { ...record, site_id: other.siteId } },
      { ...event, type: 'DELETE', record: null, old_record: { site_id: other.siteId } },
    ]) {
      const refused = await call(changeEventRoute, { method: 'POST', path: '/api/workflow/webhook', headers: auth(t), body });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    }
    // Another site's key does not reach this site's subscriptions.
    const foreign = await call(changeEventRoute, {
      method: 'POST',
      path: '/api/workflow/webhook',
      headers: auth(other),
      body: { ...event, record: { ...record, site_id: other.siteId } },
    });
    expect(foreign.status).toBe(202);
    expect(foreign.body.dispatched).toEqual([]);

    const removed = await call(unsubscribeRoute, {
      method: 'DELETE',
      path: '/api/event-subscriptions',
      headers: auth(t),
      query: { site_id: t.siteId, id: sub.body.data.id },
    });
    expect(removed.status).toBe(200);
    const after = await call(changeEventRoute, { method: 'POST', path: '/api/workflow/webhook', headers: auth(t), body: event });
    expect(after.body.dispatched).toEqual([]);
  });

  it('maps record fields into the body and reports a run that cannot start', async () => {
    const t = await createTenant();
    const sub = await subscribe(t, {
      site_id: t.siteId,
      table: 'leads',
      event_types: ['INSERT', 'UPDATE'],
      workflow: 'leadFollowUp',
      record_fields: { lead_id: 'id' },
    });
    expect(sub.status).toBe(201);
    const res = await call(changeEventRoute, {
      method: 'POST',
      path: '/api/workflow/webhook',
      headers: auth(t),
      body: { type: 'UPDATE', table: 'leads', record: { id: 'not-a-uuid' } },
    });
    expect(res.status).toBe(202);
    expect(res.body.dispatched).toEqual([
      {
        subscription_id: sub.body.data.id,
        workflow: 'leadFollowUp',
        error: { code: 'INVALID_REQUEST', message: expect.stringContaining('lead_id') },
      },
    ]);
    for (const body of [
      { site_id: t.siteId, table: 'leads', event_types: ['INSERT'], workflow: 'noSuchFlow' },
      { site_id: t.siteId, table: 'leads', event_types: ['INSERT'], workflow: 'webhook' },
      { site_id: t.siteId, table: 'leads; drop', event_types: ['INSERT'], workflow: 'dailyStandUp' },
    ]) {
      expect((await subscribe(t, body)).status).toBe(400);
    }
  });
});
