import { z } from 'zod';
import { isoTimestamp, paginationQuerySchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Commands are units of agent work on a site, carried out by workflow runs. Lifecycle:
 * `pending` (queued) → `running` (an agent works on it) → `completed` (reply recorded) or
 * `failed` (error recorded: model error, timeout, interrupted by a restart…); a pending or
 * running command can be `cancelled`. A command never stays `running` after the process that ran
 * it is gone: its run (or its deadline job) records it `failed` with code INTERRUPTED.
 */
export const COMMAND_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const FINISHED_STATUSES: readonly CommandStatus[] = ['completed', 'failed', 'cancelled'];

/**
 * The creation answer of `POST /sites/{site_id}/commands` says `processing` (the contract's word
 * for "accepted, not finished": pending or running); the detail tells which.
 */
export const PROCESSING = 'processing' as const;

/** Agents that run commands. `POST /sites/{site_id}/commands` commands are run by the CMO. */
export const AGENT_ROLES = ['cmo', 'sales', 'customerSupport', 'email', 'copywriter'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export const createCommandBodySchema = z.strictObject({
  task: z.string().trim().min(1).max(500).describe('What should be done'),
  description: z.string().max(10_000).default('').describe('Details for whoever carries the task out'),
  parameters: z
    .record(z.string(), z.unknown())
    .refine((p) => JSON.stringify(p).length <= 64 * 1024, 'parameters must be at most 64 KB serialized')
    .default({})
    .describe('Command-specific parameters, at most 64 KB'),
});

export const listCommandsQuerySchema = paginationQuerySchema
  .extend({
    status: z
      .enum([...COMMAND_STATUSES, PROCESSING])
      .optional()
      .describe('Only commands with this status (`processing`: pending or running)'),
  })
  .strict();

export const CreatedCommandSchema = z.object({
  command_id: uuidSchema,
  status: z.literal(PROCESSING).describe('Always `processing` at creation: the command is queued for the CMO agent'),
  created_at: isoTimestamp,
});

export const ToolCallSchema = z.object({
  name: z.string().describe('Tool name (as in the tool registry and MCP)'),
  arguments: z.unknown().describe("Arguments the model passed (site_id is always the credential's site)"),
  result: z.unknown().nullable().describe("The tool's result; null when it failed"),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why the call failed; null when it succeeded'),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const TokenUsageSchema = z.object({
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
  total_tokens: z.number().int().nullable(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const CommandErrorSchema = z.object({
  code: z
    .string()
    .describe(
      'MODEL_ERROR (the model endpoint failed or refused), TIMEOUT (LLM_TIMEOUT_MS passed), INTERRUPTED (the process running it stopped), UNAUTHORIZED (the key that created it was revoked or expired before it ran), MODEL_NOT_CONFIGURED, SYSTEM_ERROR',
    ),
  message: z.string(),
});
export type CommandError = z.infer<typeof CommandErrorSchema>;

export const CommandSchema = z.object({
  command_id: uuidSchema,
  site_id: uuidSchema,
  agent: z.enum(AGENT_ROLES).describe('The agent that runs the command'),
  conversation_id: uuidSchema.nullable().describe("The conversation the command's messages belong to"),
  task: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  status: z.enum(COMMAND_STATUSES).describe('pending → running → completed | failed; pending or running → cancelled'),
  reply: z.string().nullable().describe("The agent's answer once completed"),
  tool_calls: z.array(ToolCallSchema).describe('Tools the agent called, in order'),
  usage: TokenUsageSchema.nullable().describe('Tokens used by all model calls of the command'),
  error: CommandErrorSchema.nullable().describe('Why the command failed'),
  created_at: isoTimestamp,
  started_at: isoTimestamp.nullable(),
  finished_at: isoTimestamp.nullable(),
  updated_at: isoTimestamp,
});

export type CreateCommandInput = z.infer<typeof createCommandBodySchema>;
export type Command = z.infer<typeof CommandSchema>;
