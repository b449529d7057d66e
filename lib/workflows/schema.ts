import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { WORKFLOW_STATUSES } from './engine';

/** Shapes of the workflow routes (start, logs, detail, cancel, signal) — responses and queries. */
export const WorkflowFailureSchema = z.object({
  message: z.string().describe('Why the run did not complete, starting with a code (e.g. MODEL_NOT_CONFIGURED: …)'),
  cause: z
    .object({
      message: z.string(),
      source: z.string().describe('Where it happened: workflow, activity:<name> or engine'),
      stackTrace: z.string(),
    })
    .optional(),
});

export const WorkflowRecordSchema = z.object({
  workflowId: z.string().describe('<kebab-name>-<site_id>-<timestamp>-<suffix>'),
  runId: z.string(),
  type: z.string().describe('Workflow type name, e.g. leadGenerationWorkflow'),
  status: z.enum(WORKFLOW_STATUSES),
  startTime: z.string().describe('ISO 8601'),
  closeTime: z.string().optional().describe('ISO 8601, once the run ended'),
  executionTime: z.number().optional().describe('Milliseconds from start to close'),
  input: z.unknown().describe('The body the run was started with'),
  result: z.unknown().optional(),
  failure: WorkflowFailureSchema.optional(),
});

export const StartWorkflowResponseSchema = z.object({
  async: z.literal(true),
  workflowId: z.string(),
  runId: z.string(),
  status: z.literal('RUNNING').describe('Status at start; poll the logs for the outcome'),
});

export const workflowNameParams = z.object({ name: z.string().describe('Catalog name, e.g. leadGeneration') });

const limitSchema = z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1–100 (default 20)');

export const listWorkflowsQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  limit: limitSchema,
  pageToken: z.string().min(1).max(1000).optional().describe('nextPageToken of the previous page'),
  status: z.enum(WORKFLOW_STATUSES).optional().describe('Only runs in this status'),
  type: z.string().min(1).max(100).optional().describe('Only runs of this type, e.g. dailyStandUpWorkflow'),
  from: z.iso.datetime({ offset: true }).optional().describe('Runs started at or after (ISO 8601)'),
  to: z.iso.datetime({ offset: true }).optional().describe('Runs started before (ISO 8601)'),
});
export type ListWorkflowsQuery = z.infer<typeof listWorkflowsQuerySchema>;

export const ListWorkflowsResponseSchema = z.object({
  workflows: z.array(WorkflowRecordSchema),
  pagination: z.object({
    limit: z.number().int(),
    nextPageToken: z.string().optional().describe('Present when another page follows'),
    hasMore: z.boolean(),
  }),
  meta: z.object({ site_id: z.string(), total_found: z.number().int(), has_more: z.boolean() }),
});

export const workflowIdParams = z.object({ workflowId: z.string().min(1).max(300).describe("The run's workflowId") });
export const siteQuerySchema = z.strictObject({ site_id: siteIdSchema });
export const cancelWorkflowBodySchema = z.strictObject({ site_id: siteIdSchema });
export const signalWorkflowBodySchema = z.strictObject({
  site_id: siteIdSchema,
  signal: z
    .string()
    .regex(/^[A-Za-z][\w.-]{0,63}$/)
    .describe('Signal name, e.g. humanResponse'),
  payload: z.unknown().optional().describe('Value the waiting run receives'),
});
