import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import type { ApiKeyPrincipal } from '@/lib/core/principal';
import { processState } from '@/lib/core/process-state';
import { policies } from '@/lib/http/auth/policies';
import { annotationsOf, type AnyTool } from '@/lib/tools/define-tool';
import { invokeTool } from '@/lib/tools/invoke';
import { tools as registry, toolByName } from '@/lib/tools/registry';
import { readJsonBody } from './body';
import { defineProtocolRoute } from './define-route';
import { AnswerHeaders, errorBody, type Answer } from './envelope';
import { maskError, parse } from './pipeline';
import { TOOL_ROUTE_PREFIX } from './tool-route';

/**
 * The MCP server (Streamable HTTP, stateless: nothing outlives an HTTP request, JSON responses)
 * exposing every tool of the registry. A `tools/call` is answered by serveMcp itself (its params
 * checked, the tool run through callTool); every other method goes to one SDK server per process:
 * its handlers and tool list are built once, and each HTTP request hands it one message through an
 * in-process transport (see InProcessTransport) with the caller's context.
 *
 * The HTTP request goes through the pipeline's steps like any route: request id, API key (read
 * scope; Bearer or x-api-key), the site's plan rate limit with X-RateLimit-* headers, error
 * masking, and one key-usage record per request. Each `tools/call` runs the tool through
 * invokeTool — the same scope, `site_id` tenant check, validation and serialization as its REST
 * route — and results map as:
 *   - success → `structuredContent` = the REST body `{success: true, ...}`; `content[0].text` = its JSON.
 *   - error   → `isError: true`; `content[0].text` = the REST error envelope
 *               `{success:false, error:{code, message, details?, request_id}}` as JSON;
 *               `_meta.status` = the HTTP status REST answers (code → status table of lib/core/errors).
 * Protocol-level failures stay JSON-RPC errors: tools/call params that are not {name, arguments?},
 * or an unknown tool → -32602 (InvalidParams) with a short message.
 */
const SERVER_INFO = { name: 'site-growth-platform', version: '1.0.0' };

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  delete json.$schema;
  return { type: 'object' as const, ...json };
};

const successSchema = (tool: AnyTool) => tool.output.extend({ success: z.literal(true) });

/** The MCP tool list entry of a registry tool (input and output schemas from the same zod). */
export function mcpToolOf(tool: AnyTool): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description}\n\nREST: POST ${TOOL_ROUTE_PREFIX}${tool.path}. Needs the \`${tool.scope}\` scope.`,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(successSchema(tool), 'output'),
    annotations: annotationsOf(tool),
  };
}

const toolList = () => processState('mcp.toolList', () => registry.map(mcpToolOf));

interface CallContext {
  siteId: string;
  principal: ApiKeyPrincipal;
  requestId: string;
}

/**
 * The JSON text of a tool call's result. The REST body is serialized once: `structuredContent` is
 * that text and `content[0].text` the same text as a JSON string.
 */
async function callTool(ctx: CallContext, tool: AnyTool, args: unknown): Promise<string> {
  let body: string;
  try {
    body = JSON.stringify({ success: true, ...(await invokeTool(ctx, tool, args)) });
  } catch (error) {
    const apiError = maskError(error, ctx.requestId, { tool: tool.name });
    const result: CallToolResult = {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(errorBody(apiError, ctx.requestId)) }],
      _meta: { status: apiError.status },
    };
    return JSON.stringify(result);
  }
  return `{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body}}`;
}

/** A JSON answer of this text: the node:http dispatcher writes it as it is, Next gets it as a Response. */
function jsonText(text: string): Answer {
  return { status: 200, headers: new AnswerHeaders({ 'content-type': 'application/json' }), body: text };
}

/**
 * The process's one SDK server talks through this transport: `dispatch` hands it one request with
 * an id of the transport's own (so concurrent callers' ids never meet, and nothing a client sends
 * can name another caller's request) and resolves with the answer under the caller's id. The
 * caller's context travels with the request and is read back by the id the handler sees.
 */
class InProcessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly pending = new Map<string, { clientId: string | number; ctx: CallContext; answer: (m: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}
  async close(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers to requests come back: the server sends no requests or notifications of its own here.
    if (!('id' in message) || message.id === undefined || 'method' in message) return;
    const call = this.pending.get(String(message.id));
    if (!call) return;
    this.pending.delete(String(message.id));
    call.answer({ ...message, id: call.clientId } as JSONRPCMessage);
  }

  /** The context of the request the server knows by `id`. */
  contextOf(id: string | number): CallContext {
    const call = this.pending.get(String(id));
    if (!call) throw new Error('MCP request context missing');
    return call.ctx;
  }

  dispatch(message: { id: string | number; method: string; params?: Record<string, unknown> }, ctx: CallContext): Promise<JSONRPCMessage> {
    const id = `r${++this.next}`;
    return new Promise((answer) => {
      this.pending.set(id, { clientId: message.id, ctx, answer });
      this.onmessage?.({ jsonrpc: '2.0', id, method: message.method, ...(message.params ? { params: message.params } : {}) });
    });
  }
}

function mcpServer(): InProcessTransport {
  const transport = new InProcessTransport();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
    instructions:
      'Site Growth Platform CRM tools. Every tool takes the site_id of your API key. Results are {success: true, ...}; errors carry {success: false, error: {code, message, details?, request_id}}.',
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList() }));
  // Everything the server offers is a tool; clients that list resources and prompts get empty lists, not -32601.
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = toolByName(request.params.name);
    // serveMcp answered an unknown tool already; this guards a call that reaches the server another way.
    if (!tool) throw new McpError(McpErrorCode.InvalidParams, 'Unknown tool');
    return JSON.parse(await callTool(transport.contextOf(extra.requestId), tool, request.params.arguments)) as CallToolResult;
  });
  // Connecting an in-process transport only calls its (empty) start.
  void server.connect(transport);
  return transport;
}

/** One server per process (Next may load this module more than once). */
const processServer = (): InProcessTransport => processState('mcp.server', mcpServer);

/** The message without `params.arguments` (what the edge checks; invokeTool checks the arguments). */
function withoutToolArguments(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return message;
  const { params, ...rest } = message as { params?: unknown };
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return message;
  const { arguments: _checkedByInvokeTool, ...head } = params as Record<string, unknown>;
  return { ...rest, params: head };
}

const ToolCallParamsSchema = z.object({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The JSON-RPC error for a `tools/call` whose params are not `{name, arguments?}` or name no tool:
 * -32602 (InvalidParams) with a short message — the tool's own input is checked by invokeTool.
 */
function toolCallParamsError(message: unknown): Response | undefined {
  const { id, method, params } = message as { id?: string | number; method: string; params?: unknown };
  if (method !== 'tools/call' || id === undefined) return undefined;
  const parsed = ToolCallParamsSchema.safeParse(params ?? {});
  const error = !parsed.success
    ? 'Invalid params: tools/call takes {name: string, arguments?: object}'
    : !toolByName(parsed.data.name)
      ? `Unknown tool: ${parsed.data.name.slice(0, 100)}`
      : undefined;
  if (!error) return undefined;
  return Response.json({ jsonrpc: '2.0', id, error: { code: McpErrorCode.InvalidParams, message: error } });
}

/**
 * A request after `initialize` may say which protocol version it speaks (`MCP-Protocol-Version`);
 * one the server does not support is a 400 in the error envelope, with the JSON-RPC error the
 * Streamable HTTP transport specifies.
 */
function unsupportedVersion(req: Request, method: string): ApiError | undefined {
  const version = req.headers.get('mcp-protocol-version');
  if (method === 'initialize' || version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const message = `Bad Request: Unsupported protocol version: ${version.slice(0, 100)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
  return new ApiError('INVALID_REQUEST', message, { jsonrpc_error: { code: -32000, message } });
}

/**
 * Answers one JSON-RPC message for an authenticated caller. The HTTP body is checked as on every
 * route, answering in the error envelope: JSON under the cap, the text rule, the documented
 * message shape. A tool call's arguments are the tool's input: invokeTool checks them and the
 * answer is a tool result, as over REST. A notification has nothing to answer in a stateless
 * server (202); a request goes to the process's server and its answer is the JSON body.
 */
async function serveMcp(req: Request, ctx: CallContext): Promise<Answer | Response> {
  const message = await readJsonBody(req);
  const head = parse(JsonRpcRequestSchema, withoutToolArguments(message), 'body');
  const refusedVersion = unsupportedVersion(req, head.method);
  if (refusedVersion) throw refusedVersion;
  const refused = toolCallParamsError(message);
  if (refused) return refused;
  if (head.id === undefined) return new Response(null, { status: 202 });
  const { params } = message as { params?: Record<string, unknown> };
  // A tool call — nearly every request — is answered here: its params were checked above and
  // callTool builds a result of the documented shape, so the SDK's parsing of the request and of
  // the result again would only repeat that work. Every other method goes to the SDK server.
  if (head.method === 'tools/call') {
    const tool = toolByName(params!.name as string)!;
    const result = await callTool(ctx, tool, params!.arguments);
    return jsonText(`{"jsonrpc":"2.0","id":${JSON.stringify(head.id)},"result":${result}}`);
  }
  const answer = await processServer().dispatch({ id: head.id, method: head.method, params }, ctx);
  return Response.json(answer);
}

const JsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().describe('Absent for notifications'),
    method: z
      .string()
      .describe('initialize, notifications/initialized, tools/list, tools/call, resources/list, resources/templates/list, prompts/list, ping'),
    params: z.record(z.string(), z.unknown()).optional().describe('For tools/call: {name, arguments}'),
  })
  .describe('One JSON-RPC 2.0 message of the Model Context Protocol');

const JsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]),
    result: z.record(z.string(), z.unknown()).optional().describe('For tools/call: {content, structuredContent?, isError?, _meta?}'),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .describe('The JSON-RPC answer (JSON, not an SSE stream)');

// POST /api/mcp — the MCP server; documented here like every other route.
export const mcpRoute = defineProtocolRoute(
  {
    summary: 'MCP server (Streamable HTTP) exposing the tools',
    description: [
      'Model Context Protocol over Streamable HTTP, stateless (no `Mcp-Session-Id`), JSON responses (always JSON, whatever `Accept` says). The body is one JSON-RPC message (no batches); a body that is not JSON, not that shape, or carries text the API refuses answers 400 in the error envelope, as on every route.',
      `Tools: ${registry.map((t) => `\`${t.name}\` (POST ${TOOL_ROUTE_PREFIX}${t.path})`).join(', ')}. Each has the input and output schema of its REST route.`,
      'A successful `tools/call` returns `structuredContent` = the REST body; a failed one returns `isError: true` with the REST error envelope as the text content and `_meta.status` = the REST HTTP status. The key is checked for each call exactly as on the REST route (scope, `site_id`).',
      'Without a valid key the answer is HTTP 401 with the error envelope and `WWW-Authenticate: Bearer`.',
    ].join('\n\n'),
    tags: ['Tools'],
    auth: policies.keyRead,
    fastPath: "every agent's tool call",
    body: JsonRpcRequestSchema,
    response: JsonRpcResponseSchema,
    envelope: 'raw',
    openapi: { otherResponses: { 202: 'Accepted: the message was a notification or a response (no body)' } },
  },
  async ({ req, requestId, principal }) => {
    const key = principal as ApiKeyPrincipal;
    return serveMcp(req, { siteId: key.siteId, principal: key, requestId });
  },
);
