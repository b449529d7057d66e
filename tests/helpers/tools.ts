import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpRoute } from '@/lib/http/mcp';
import { toolRoute } from '@/lib/http/tool-route';
import type { AnyTool } from '@/lib/tools/define-tool';
import { call, type CallResult } from './harness';
import { serveRoutes } from './serve';

/** Calls a tool's REST route in-process. */
/** The sorts by a searched field (name, email, company) that refuse a search matching more than LEAD_SEARCH_SORT_CAP leads. */
export const SEARCHED_SORTS = [
  { sort_by: 'name', sort_order: 'asc' },
  { sort_by: 'email', sort_order: 'asc' },
  { sort_by: 'company', sort_order: 'desc' },
] as const;

export function viaRest(tool: AnyTool, headers: Record<string, string>, body: unknown): Promise<CallResult> {
  return call(toolRoute(tool), { method: 'POST', path: `/api/agents/tools/${tool.path}`, headers, body });
}

/** The MCP server at /api/mcp over real HTTP, and official MCP clients connected to it. */
export async function startMcp() {
  const served = await serveRoutes({ '/api/mcp': { POST: mcpRoute } });
  const clients: Client[] = [];
  return {
    url: `${served.url}/api/mcp`,
    async connect(headers: Record<string, string>): Promise<Client> {
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/api/mcp`), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await served.close();
    },
  };
}

/** A tool call through MCP, as `{status, body}`: the structured result or the error envelope with its REST status. */
export async function viaMcp(client: Client, name: string, args: Record<string, unknown>): Promise<{ status: number | 'ok'; body: any }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0].text;
  if (result.isError) return { status: (result._meta as { status: number }).status, body: JSON.parse(text) };
  return { status: 'ok', body: result.structuredContent };
}

/** The error envelope without its per-request id, for comparing two calls. */
export function withoutRequestId(body: any) {
  if (!body?.error) return body;
  const { request_id: _id, ...error } = body.error;
  return { ...body, error };
}

/** Replaces ids, timestamps and generated emails so two equivalent records compare equal. */
export function normalized(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<timestamp>')
      .replace(/[a-z0-9.+-]+@example\.(com|org)/gi, '<email>'),
  );
}
