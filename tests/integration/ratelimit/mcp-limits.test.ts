import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listSites } from '@/app/sites/route';
import { rows } from '@/lib/db/raw';
import { mcpRoute } from '@/lib/http/mcp';
import { flushKeyUsage } from '@/lib/keys/usage';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createTenant, type Tenant } from '@/tests/helpers/harness';
import { limiterClock, useRateLimits } from '@/tests/helpers/rate-limits';

useRateLimits();

const MINUTE = 60_000;

const rpc = (key: string, body: unknown) =>
  call(mcpRoute, {
    method: 'POST',
    path: '/api/mcp',
    headers: { ...presenters.bearer(key), accept: 'application/json, text/event-stream' },
    body,
  });
const list = (key: string) => rpc(key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('MCP under the plan limits, like REST', () => {
  let basic: Tenant;
  beforeAll(async () => {
    basic = await createTenant();
  });
  const setNow = limiterClock();

  it('answers with X-RateLimit-* and 429 RATE_LIMITED past the Basic plan, counting REST and MCP together', async () => {
    setNow(200 * MINUTE + 1_000);
    const first = await list(basic.key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(first.headers.get('x-ratelimit-reset')).toBe(String((201 * MINUTE) / 1000));
    for (let i = 0; i < 29; i++) expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(basic.key) })).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await list(basic.key)).status).toBe(200);
    const refused = await list(basic.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', request_id: expect.any(String) } });
  });

  it('records one usage entry per MCP request, refused ones included', async () => {
    const tenant = await createTenant();
    const { id, apiKey } = await createKey(tenant.user, tenant.siteId);
    const writeOnly = await createKey(tenant.user, tenant.siteId, ['write']);
    const called = await rpc(apiKey, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'getLeads', arguments: { site_id: tenant.siteId } },
    });
    expect(called.status).toBe(200);
    expect((await list(apiKey)).status).toBe(200);
    expect((await list(writeOnly.apiKey)).status).toBe(403);
    await flushKeyUsage();
    const recorded = await rows<{ key_id: string; route: string; status: number; requests: number }>(
      sql`select key_id, route, status, sum(requests)::int as requests from api_key_usage where site_id = ${tenant.siteId}
          group by key_id, route, status order by status`,
    );
    expect(recorded).toEqual([
      { key_id: id, route: '/api/mcp', status: 200, requests: 2 },
      { key_id: writeOnly.id, route: '/api/mcp', status: 403, requests: 1 },
    ]);
  });
});
