import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '@/lib/db/raw';
import { flushKeyUsage } from '@/lib/keys/usage';
import { createLeadTool, getLeadsTool } from '@/lib/tools/leads';
import { tools } from '@/lib/tools/registry';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { servedOpenApi } from '@/tests/helpers/served-openapi';
import { startMcp, viaMcp, viaRest, withoutRequestId } from '@/tests/helpers/tools';

let mine: Tenant;
let other: Tenant;
let mcp: Awaited<ReturnType<typeof startMcp>>;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  mcp = await startMcp();
});
afterAll(async () => {
  await mcp?.close();
});

const rpc = (headers: Record<string, string>, body: unknown) =>
  fetch(mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

describe('MCP server authentication', () => {
  it.each([
    ['no key', {}],
    ['an unknown key', presenters.bearer('key_' + 'A'.repeat(43))],
    ['a revoked key', () => presenters.bearer(mine.revokedKey)],
    ['an expired key', () => presenters.bearer(mine.expiredKey)],
    ['a session token', () => presenters.bearer(mine.user.token)],
  ] as const)('answers 401 with the error envelope for %s', async (_why, headers) => {
    const res = await rpc(typeof headers === 'function' ? headers() : headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', request_id: expect.any(String) } });
  });

  it('refuses the official client without a key', async () => {
    await expect(mcp.connect({})).rejects.toThrow(/401|Unauthorized/i);
  });
});

describe('MCP tools', () => {
  let client: Client;
  beforeAll(async () => {
    client = await mcp.connect(presenters.bearer(mine.key));
  });

  it('creates through MCP and reads the same record through REST', async () => {
    const email = uniqueEmail();
    const created = await viaMcp(client, 'createLead', { site_id: mine.siteId, name: 'Via MCP', email });
    expect(created.status).toBe('ok');
    expect(created.body).toMatchObject({ success: true, lead: { name: 'Via MCP', email } });
    const rest = await viaRest(getLeadsTool, presenters.xApiKey(mine.key), { site_id: mine.siteId, search: email });
    expect(rest.body.leads).toEqual([created.body.lead]);
    const viaProtocol = await viaMcp(client, 'getLeads', { site_id: mine.siteId, search: email });
    expect(viaProtocol.body).toEqual(rest.body);
  });

  it('gives the same 409 for a duplicate email both ways', async () => {
    const email = uniqueEmail();
    await viaMcp(client, 'createLead', { site_id: mine.siteId, name: 'x', email });
    const rest = await viaRest(createLeadTool, presenters.bearer(mine.key), { site_id: mine.siteId, name: 'x', email });
    const viaProtocol = await viaMcp(client, 'createLead', { site_id: mine.siteId, name: 'x', email });
    expect(rest.status).toBe(409);
    expect(viaProtocol.status).toBe(409);
    expect(withoutRequestId(viaProtocol.body)).toEqual(withoutRequestId(rest.body));
  });

  it('applies the tool scope per call: a read-only key lists and reads but cannot write (403 both ways)', async () => {
    const readOnly = await mcp.connect(presenters.bearer(mine.readKey));
    expect((await readOnly.listTools()).tools).toHaveLength(tools.length);
    expect((await viaMcp(readOnly, 'getLeads', { site_id: mine.siteId })).status).toBe('ok');
    const body = { site_id: mine.siteId, name: 'x', email: uniqueEmail() };
    const viaProtocol = await viaMcp(readOnly, 'createLead', body);
    const rest = await viaRest(createLeadTool, presenters.bearer(mine.readKey), body);
    expect(viaProtocol.status).toBe(403);
    expect(withoutRequestId(viaProtocol.body)).toEqual(withoutRequestId(rest.body));
  });

  it("hides another site's records: its lead id is a 404 through MCP too", async () => {
    const foreign = await viaRest(createLeadTool, presenters.bearer(other.key), { site_id: other.siteId, name: 'Other', email: uniqueEmail() });
    const res = await viaMcp(client, 'updateLead', { site_id: mine.siteId, lead_id: foreign.body.lead.id, name: 'Hijacked' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Lead not found' });
  });

  it('annotates every tool with what a call does, and answers resources and prompts with empty lists', async () => {
    const { tools: listed } = await client.listTools();
    const byName = Object.fromEntries(listed.map((t) => [t.name, t.annotations]));
    expect(byName.getLeads).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(byName.createLead).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.updateLead).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.analyzeICPTotalCount).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    for (const t of listed)
      expect(Object.keys(t.annotations ?? {}), t.name).toEqual(expect.arrayContaining(['readOnlyHint', 'destructiveHint', 'idempotentHint']));
    expect(await client.listResources()).toMatchObject({ resources: [] });
    expect(await client.listResourceTemplates()).toMatchObject({ resourceTemplates: [] });
    expect(await client.listPrompts()).toMatchObject({ prompts: [] });
  });

  it('answers an unknown tool with a JSON-RPC InvalidParams error, its message said once', async () => {
    const error = await client.callTool({ name: 'dropTables', arguments: {} }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe('MCP error -32602: Unknown tool: dropTables');
    const res = await rpc(presenters.bearer(mine.key), {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'dropTables', arguments: {} },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Unknown tool: dropTables' } });
  });

  it.each([
    ['no params', undefined],
    ['no name', { arguments: {} }],
    ['a name that is not a string', { name: 42, arguments: {} }],
    ['arguments that are a string', { name: 'getLeads', arguments: 'site_id' }],
    ['arguments that are an array', { name: 'getLeads', arguments: [1, 2] }],
  ])('answers tools/call with %s with -32602 and a short message', async (_why, params) => {
    const res = await rpc(presenters.bearer(mine.key), { jsonrpc: '2.0', id: 8, method: 'tools/call', ...(params === undefined ? {} : { params }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: 'Invalid params: tools/call takes {name: string, arguments?: object}' },
    });
  });
});

describe('OpenAPI', () => {
  it('documents every tool route, GET /api/requirements and /api/mcp', async () => {
    const doc = (await servedOpenApi()).whole;
    for (const t of tools) expect(doc.paths[`/api/agents/tools/${t.path}`]?.post, t.path).toBeDefined();
    expect(doc.paths['/api/requirements'].get).toBeDefined();
    expect(doc.paths['/api/mcp'].post.description).toContain('createLead');
    expect(doc.paths['/api/agents/tools/leads/create'].post.responses['201']).toBeDefined();
    const conflict = doc.paths['/api/agents/tools/leads/create'].post.responses['409'];
    expect(conflict.$ref).toBe('#/components/responses/Conflict');
    expect(doc.components.responses.Conflict.description).toContain('CONFLICT');
  });
});

describe('MCP key usage', () => {
  it('records one usage entry per MCP request, not a second one for the in-process tool call', async () => {
    const { createKey } = await import('@/tests/helpers/harness');
    const { apiKey, id } = await createKey(mine.user, mine.siteId);
    const client = await mcp.connect(presenters.bearer(apiKey));
    await flushKeyUsage();
    const requestsByRoute = async () =>
      Object.fromEntries(
        (
          await rows<{ route: string; n: number }>(sql`select route, sum(requests)::int as n from api_key_usage where key_id = ${id} group by route`)
        ).map((r) => [r.route, r.n]),
      );
    const before = await requestsByRoute();
    await viaMcp(client, 'getLeads', { site_id: mine.siteId });
    await flushKeyUsage();
    expect(await requestsByRoute()).toEqual({ ...before, '/api/mcp': (before['/api/mcp'] ?? 0) + 1 });
  });
});
