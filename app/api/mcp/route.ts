import { mcpRoute } from '@/lib/http/mcp';

// POST /api/mcp — MCP server (Streamable HTTP) exposing every tool of the registry
// fast path — every agent's tool call
export const POST = mcpRoute;
