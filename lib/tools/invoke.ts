import type { z } from 'zod';
import { requireOwnSite, requireScope } from '@/lib/core/principal';
import { parseInput, requestedSites } from '@/lib/core/validate';
import type { AnyTool, ToolContext } from './define-tool';

/**
 * The one way a tool runs, whoever calls it (its REST route, an MCP `tools/call`, an agent):
 * the credential needs the tool's scope, the `site_id` it names must be the credential's site,
 * the input is validated strictly and the result serialized through the output schema. The same
 * checks in the same order as the REST pipeline, so every entry answers alike.
 */
export async function invokeTool(ctx: ToolContext, tool: AnyTool, input: unknown): Promise<Record<string, unknown>> {
  return tool.output.parse(await runTool(ctx, tool, input)) as Record<string, unknown>;
}

/**
 * invokeTool up to the result, not yet serialized through `tool.output`: for the REST route,
 * whose declaration serializes its answer through that same schema (once, not twice).
 */
export async function runTool(ctx: ToolContext, tool: AnyTool, input: unknown): Promise<z.input<AnyTool['output']>> {
  requireScope(ctx.principal, tool.scope);
  const named = input && typeof input === 'object' && !Array.isArray(input) && 'site_id' in input ? [(input as { site_id: unknown }).site_id] : [];
  requireOwnSite(ctx.principal, requestedSites(named));
  const parsed = parseInput(tool.input, input ?? {}, 'body');
  return tool.run(ctx, parsed);
}
