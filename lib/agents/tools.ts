import { jsonSchema, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ToolCall } from '@/lib/commands/schema';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import type { AnyTool, ToolContext } from '@/lib/tools/define-tool';
import { invokeTool } from '@/lib/tools/invoke';
import { tools as registry } from '@/lib/tools/registry';

/**
 * The registry's tools as the model sees them, bound to one site. `site_id` is not part of any
 * schema the model is shown and is always set from the credential, so whatever the model writes
 * it acts on this site only. A key without the write scope is offered the read tools only. Every
 * call runs through invokeTool (scope, tenant, strict validation, output serialization) and is
 * recorded, failed calls too.
 */
function modelInputSchema(t: AnyTool): Record<string, unknown> {
  const json = z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as {
    $schema?: string;
    properties?: Record<string, unknown>;
    required?: string[];
  };
  delete json.$schema;
  if (json.properties) delete json.properties.site_id;
  if (json.required) json.required = json.required.filter((name) => name !== 'site_id');
  return json;
}

const callError = (error: unknown, ctx: ToolContext, name: string): { code: string; message: string } => {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  log.error('agent tool failed', { request_id: ctx.requestId, tool: name, ...errorFields(error) });
  return { code: 'SYSTEM_ERROR', message: 'The tool failed' };
};

/** The tools offered for this credential, by name. */
export const offeredTools = (ctx: ToolContext): AnyTool[] => registry.filter((t) => ctx.principal.scopes.includes(t.scope));

export function siteToolSet(ctx: ToolContext, record: (call: ToolCall) => void): ToolSet {
  const set: ToolSet = {};
  for (const t of offeredTools(ctx)) {
    set[t.name] = tool({
      description: t.description,
      // No validation here: invokeTool validates strictly, as for REST and MCP callers.
      inputSchema: jsonSchema<Record<string, unknown>>(modelInputSchema(t)),
      execute: async (args: unknown) => {
        const input = args && typeof args === 'object' && !Array.isArray(args) ? { ...args, site_id: ctx.siteId } : args;
        try {
          const result = await invokeTool(ctx, t, input);
          record({ name: t.name, arguments: args, result, error: null });
          return result;
        } catch (error) {
          const failure = callError(error, ctx, t.name);
          record({ name: t.name, arguments: args, result: null, error: failure });
          // The model reads the failure and may correct itself in its next step.
          return { error: failure };
        }
      },
    });
  }
  return set;
}
