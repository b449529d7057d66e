import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as pingRoute } from '@/app/api/webhooks/[id]/ping/route';
import { POST as createEndpointRoute } from '@/app/api/webhooks/route';
import { resetConfig } from '@/lib/core/config';
import { listDeliveries } from '@/lib/webhooks/service';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startReceiver, type Receiver } from '@/tests/helpers/webhook-receiver';

/** The console pages a site's deliveries (newest first) by offset: pages that neither overlap nor skip one. */
let t: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
  resetConfig();
  t = await createTenant();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  resetConfig();
});

describe('webhook deliveries, page by page', () => {
  it('pages the deliveries newest first without overlap or gap', async () => {
    const auth = { authorization: `Bearer ${t.key}` };
    const created = await call(createEndpointRoute, {
      method: 'POST',
      path: '/api/webhooks',
      headers: auth,
      body: { site_id: t.siteId, url: receiver.url('/pages'), events: ['lead.created'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpointId = created.body.data.id as string;
    const pinged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ping = await call(pingRoute, {
        method: 'POST',
        path: `/api/webhooks/${endpointId}/ping`,
        headers: auth,
        params: { id: endpointId },
        body: { site_id: t.siteId },
      });
      expect(ping.status, JSON.stringify(ping.body)).toBe(202);
      pinged.push(ping.body.data.delivery_id);
    }
    const all = (await listDeliveries(t.siteId, { limit: 10 })).map((d) => d.id);
    expect([...all].sort()).toEqual([...pinged].sort());
    const pages = await Promise.all([0, 2, 4].map((offset) => listDeliveries(t.siteId, { limit: 2, offset })));
    expect(pages.map((p) => p.map((d) => d.id))).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
    expect(await listDeliveries(t.siteId, { limit: 2, offset: 6 })).toEqual([]);
  });
});
