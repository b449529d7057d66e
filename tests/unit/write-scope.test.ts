import { describe, expect, it } from 'vitest';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import { HTTP_METHODS } from '@/lib/http/openapi';
import { TOOL_ROUTE_PREFIX } from '@/lib/http/tool-route';
import { tools } from '@/lib/tools/registry';

/**
 * A key with the read scope may only read: every API-key operation other than GET creates or
 * changes records and needs `write`, except the operations that are reads sent as POST — the
 * read tools of the registry (each action that writes checks `write` itself) and the MCP
 * endpoint, which checks each tool call's own scope.
 */
const READS_OVER_POST = new Set([...tools.filter((t) => t.scope === 'read').map((t) => `POST ${TOOL_ROUTE_PREFIX}${t.path}`), 'POST /api/mcp']);

const apiKeyOperations = routeManifest.flatMap(({ path, module }) =>
  HTTP_METHODS.flatMap((method) => {
    const def = (module as Record<string, { definition?: { auth: { kind: string; scope?: string } } }>)[method]?.definition;
    return def?.auth.kind === 'apiKey' ? [{ id: `${method} ${path}`, method, scope: def.auth.scope ?? (method === 'GET' ? 'read' : 'write') }] : [];
  }),
);

describe('write scope', () => {
  it('every API-key operation that is not a GET needs the write scope, reads sent as POST excepted', () => {
    const writes = apiKeyOperations.filter((op) => op.method !== 'GET' && !READS_OVER_POST.has(op.id));
    expect(writes.length).toBeGreaterThan(40);
    expect(writes.filter((op) => op.scope !== 'write').map((op) => op.id)).toEqual([]);
  });

  it('the exceptions are reads: registry tools of the read scope and MCP, declared with read', () => {
    const excepted = apiKeyOperations.filter((op) => READS_OVER_POST.has(op.id));
    expect(excepted.map((op) => op.id).sort()).toEqual([...READS_OVER_POST].sort());
    expect(excepted.filter((op) => op.scope !== 'read')).toEqual([]);
  });

  it('the agent routes need write (they record a command, a conversation and messages)', () => {
    const agents = apiKeyOperations.filter((op) => /^POST \/api\/agents\/(?!tools\/)/.test(op.id));
    expect(agents.map((op) => op.id).sort()).toEqual([
      'POST /api/agents/cmo/message',
      'POST /api/agents/copywriter/content-editor',
      'POST /api/agents/customerSupport/message',
      'POST /api/agents/email/reply',
      'POST /api/agents/sales/message',
    ]);
    expect(agents.every((op) => op.scope === 'write')).toBe(true);
  });
});
