import type { z } from 'zod';
import type { ErrorCode } from '@/lib/core/errors';
import type { ApiKeyPrincipal, Scope } from '@/lib/core/principal';

/** What a tool runs with: the tenant (the credential's site), the credential and the request id. */
export interface ToolContext {
  siteId: string;
  principal: ApiKeyPrincipal;
  requestId: string;
}

/**
 * One tool, declared once. The REST route (`/api/agents/tools/{path}`), the MCP tool and the
 * agents' tool set are all generated from this declaration.
 */
export interface Tool<I extends z.ZodType = z.ZodType, O extends z.ZodObject = z.ZodObject> {
  /** Tool name for MCP and agents (e.g. `createLead`). */
  name: string;
  /** REST path under /api/agents/tools/ (e.g. `leads/create`). */
  path: string;
  /** Short title (OpenAPI summary, MCP title). */
  title: string;
  /** What the tool does and when to use it (OpenAPI description, MCP description). */
  description: string;
  /** The API-key scope the tool needs. */
  scope: Scope;
  /** The arguments / request body; always carries `site_id`. */
  input: I;
  /** The result without `success` (the REST body and MCP structured content are `{success: true, ...output}`). */
  output: O;
  /**
   * What calling it does, for MCP clients deciding whether to ask before a call: `read` changes
   * nothing; `append` adds something each call (a record, a credit charge); `overwrite` replaces
   * stored values (the same call twice leaves the same state). `external` marks tools that reach an outside provider.
   */
  effect: ToolEffect;
  external?: boolean;
  /** The tool creates a record: REST answers 201 instead of 200. */
  creates?: boolean;
  /** Error codes the tool may answer with, beyond authentication and validation. */
  errors?: ErrorCode[];
  run(ctx: ToolContext, input: z.infer<I>): Promise<z.input<O>>;
}

export type ToolEffect = 'read' | 'append' | 'overwrite';

/** The MCP tool annotations of an effect. */
export function annotationsOf(tool: Pick<Tool, 'effect' | 'external' | 'title'>) {
  return {
    title: tool.title,
    readOnlyHint: tool.effect === 'read',
    destructiveHint: tool.effect === 'overwrite',
    idempotentHint: tool.effect !== 'append',
    openWorldHint: !!tool.external,
  };
}

export const defineTool = <I extends z.ZodType, O extends z.ZodObject>(tool: Tool<I, O>): Tool<I, O> => tool;

/** Any tool, for registries and generators. */
export type AnyTool = Tool<z.ZodType, z.ZodObject>;
