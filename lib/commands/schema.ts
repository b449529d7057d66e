import { z } from 'zod';
import { isoTimestamp, paginationQuerySchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Commands are requests for work on a site. They are created with status `processing` and stay
 * there until an agent picks them up and records `completed` or `failed` with a result.
 */
export const COMMAND_STATUSES = ['processing', 'completed', 'failed'] as const;

export const createCommandBodySchema = z.strictObject({
  task: z.string().trim().min(1).max(500).describe('What should be done'),
  description: z.string().max(10_000).default('').describe('Details for whoever carries the task out'),
  parameters: z
    .record(z.string(), z.unknown())
    .refine((p) => JSON.stringify(p).length <= 64 * 1024, 'parameters must be at most 64 KB serialized')
    .default({})
    .describe('Command-specific parameters, at most 64 KB'),
});

export const listCommandsQuerySchema = paginationQuerySchema.extend({
  status: z.enum(COMMAND_STATUSES).optional().describe('Only commands with this status'),
}).strict();

export const CreatedCommandSchema = z.object({
  command_id: uuidSchema,
  status: z.enum(COMMAND_STATUSES),
  created_at: isoTimestamp,
});

export const CommandSchema = CreatedCommandSchema.extend({
  site_id: uuidSchema,
  task: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  result: z.unknown().nullable().describe('Outcome recorded when the command finishes; null while processing'),
  updated_at: isoTimestamp,
});

export type CreateCommandInput = z.infer<typeof createCommandBodySchema>;
export type Command = z.infer<typeof CommandSchema>;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
