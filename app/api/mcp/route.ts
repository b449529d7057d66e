import { mcpRoute } from '@/lib/http/mcp';

// POST /api/mcp — MCP server (Streamable HTTP) exposing every tool of the registry
export const POST = mcpRoute;
