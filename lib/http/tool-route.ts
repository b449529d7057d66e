import { processState } from '@/lib/core/process-state';
import { policies } from '@/lib/http/auth/policies';
import type { AnyTool, Tool } from '@/lib/tools/define-tool';
import { runTool } from '@/lib/tools/invoke';
import { defineRoute, type RouteHandler } from './define-route';

/** Tool routes take the key as `Authorization: Bearer <key>` or `x-api-key` (spec §5: `policies.key`). */
export const TOOL_ROUTE_PREFIX = '/api/agents/tools/';

const handlers = processState('http.toolRoutes', () => new WeakMap<object, RouteHandler>());

/**
 * The REST route of a tool: `POST /api/agents/tools/{tool.path}`, body = the tool's input,
 * answer `{success: true, ...output}` (201 for tools that create). Authentication, tenant and
 * rate limit are the pipeline's; the tool itself runs through invokeTool's checks, as from MCP and
 * agents (runTool: the declaration's `response` — the tool's output schema — serializes the result once).
 */
export function toolRoute<T extends Tool<any, any>>(tool: T, o: { fastPath?: string } = {}): RouteHandler {
  const known = handlers.get(tool);
  // One handler per tool (suites reach a tool's route through here); its route file may declare it fast after a suite asked.
  if (known) return o.fastPath ? Object.assign(known, { fastPath: o.fastPath, definition: { ...known.definition, fastPath: o.fastPath } }) : known;
  const t = tool as unknown as AnyTool;
  const handler = defineRoute({
    summary: t.title,
    description: `${t.description}\n\nAlso served as the MCP tool \`${t.name}\` at /api/mcp, with the same arguments, result and errors.`,
    tags: ['Tools'],
    auth: { ...policies.key, scope: t.scope },
    body: t.input,
    bodyReading: { checkedByHandler: true },
    response: t.output,
    envelope: 'bare',
    status: t.creates ? 201 : 200,
    errors: t.errors,
    fastPath: o.fastPath,
    handler: ({ siteId, principal, requestId, body }) => runTool({ siteId, principal, requestId }, t, body),
  });
  handlers.set(tool, handler);
  return handler;
}
