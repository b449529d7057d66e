import { beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { createSiteObjects, routeOf, siteFingerprint } from '@/tests/helpers/site-objects';

useModelForFile();

/**
 * The text rule at the edge (lib/core/text.ts): strings PostgreSQL cannot store, lone
 * surrogates and control characters are a 400 INVALID_REQUEST naming the field, for every
 * route, at any depth of a JSON field, in bodies, queries and path params; nothing is written.
 */
const NUL = 'abc\u0000\u0000';
let t: Tenant;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await createTenant();
  ids = await createSiteObjects(t);
});

function expectRefused(res: { status: number; body: any }, path: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({
    success: false,
    error: {
      code: 'INVALID_REQUEST',
      message: expect.stringContaining(path),
      details: { issues: [{ path, message: expect.any(String) }] },
      request_id: expect.any(String),
    },
  });
}

describe('text the database cannot store', () => {
  const bearer = () => ({ authorization: `Bearer ${t.key}` });
  const cases: [string, string, () => Parameters<typeof call>[1], string][] = [
    ['POST', '/api/agents/tools/requirements/create', () => ({ path: '', headers: bearer(), body: { site_id: t.siteId, title: NUL } }), 'body.title'],
    [
      'POST',
      '/api/agents/tools/segments/create',
      () => ({ path: '', headers: bearer(), body: { site_id: t.siteId, name: 'ok', attributes: { tags: ['fine', NUL] } } }),
      'body.attributes.tags.1',
    ],
    ['POST', '/api/visitors/sites', () => ({ path: '', headers: t.user.auth, body: { name: NUL } }), 'body.name'],
    [
      'POST',
      '/sites/{site_id}/commands',
      () => ({ path: '', params: { site_id: t.siteId }, headers: { 'x-api-key': t.key }, body: { task: 'ok', parameters: { [`k${NUL}`]: 1 } } }),
      `body.parameters.k${NUL}`,
    ],
    [
      'POST',
      '/api/visitors/session',
      () => ({ path: '', headers: { 'x-sa-api-key': t.key }, body: { site_id: t.siteId, custom_data: { a: { b: 'lone \ud800' } } } }),
      'body.custom_data.a.b',
    ],
    [
      'POST',
      '/api/agents/tools/leads/create',
      () => ({ path: '', headers: bearer(), body: { site_id: t.siteId, name: 'esc \u001b[2J', email: 'x@example.com' } }),
      'body.name',
    ],
    [
      'GET',
      '/sites/{site_id}/commands/{command_id}',
      () => ({ path: '', params: { site_id: t.siteId, command_id: `${ids.command_id}\u0000` }, headers: { 'x-api-key': t.key } }),
      'path.command_id',
    ],
    ['POST', '/api/agents/tools/leads/get', () => ({ path: '', headers: bearer(), body: { site_id: t.siteId, search: NUL } }), 'body.search'],
  ];

  it.each(cases)('%s %s refuses it (400, field named, nothing written)', async (method, path, request, field) => {
    const before = await siteFingerprint([t.siteId]);
    expectRefused(await call(routeOf(method, path), { ...request(), method, path }), field);
    expect(await siteFingerprint([t.siteId])).toEqual(before);
  });

  it('keeps tab, newline and carriage return, DEL and C1 characters', async () => {
    const title = 'line one\r\nline\ttwo \u007f\u0085';
    const res = await call(routeOf('POST', '/api/agents/tools/requirements/create'), {
      method: 'POST',
      path: '',
      headers: bearer(),
      body: { site_id: t.siteId, title },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.requirement.title).toBe(title);
  });

  it('refuses it in MCP tool arguments as a tool result, with the REST envelope', async () => {
    const res = await call(routeOf('POST', '/api/mcp'), {
      method: 'POST',
      path: '/api/mcp',
      headers: { ...bearer(), accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'createRequirement', arguments: { site_id: t.siteId, title: NUL } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expectRefused({ status: res.body.result._meta.status, body: JSON.parse(res.body.result.content[0].text) }, 'body.title');
  });

  it('refuses a JSON-RPC message carrying it, and a body that is not JSON, in the error envelope', async () => {
    const mcp = routeOf('POST', '/api/mcp');
    expectRefused(
      await call(mcp, { method: 'POST', path: '/api/mcp', headers: bearer(), body: { jsonrpc: '2.0', id: 1, method: `tools/list${NUL}` } }),
      'body.method',
    );
    const bad = await call(mcp, {
      method: 'POST',
      path: '/api/mcp',
      headers: { ...bearer(), 'content-type': 'application/json' },
      rawBody: '{"jsonrpc":',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
  });
});
