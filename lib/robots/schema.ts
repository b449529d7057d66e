import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { actionSchema, InstancePlanSchema, InstanceSchema, PlanStepSchema, STEP_STATUSES } from './instance-schema';

/**
 * The domain's zod module: the instance resources (spec §2.8–2.9, ./instance-schema.ts, re-exported
 * so the document names their shapes as before) and the bodies and answers of the robot routes (spec §4.10).
 */
export * from './instance-schema';

export const ACTION_TYPES = ['navigate', 'click', 'type', 'wait', 'extract', 'screenshot'] as const;
export const ACT_MAX_ACTIONS = 20;
export const TIMEOUT_HOURS = { min: 0.1, max: 24, default: 1 } as const;

const instanceId = uuidSchema.describe('The instance');
const activitySchema = z.string().trim().min(3).max(2000).describe('What the robot should do (at least 3 characters)');
const timeoutHours = z
  .number()
  .min(TIMEOUT_HOURS.min)
  .max(TIMEOUT_HOURS.max)
  .describe(`Hours the browser runs before it stops by itself, ${TIMEOUT_HOURS.min}–${TIMEOUT_HOURS.max} (default ${TIMEOUT_HOURS.default})`);

export const robotInstanceBodySchema = z.strictObject({
  site_id: siteIdSchema,
  activity: activitySchema,
  instance_id: uuidSchema.optional().describe('Resume this instance instead of creating one'),
  timeout_hours: timeoutHours.optional(),
});

export const instanceIdBodySchema = z.strictObject({ site_id: siteIdSchema.optional(), instance_id: instanceId });

export const resumeBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  instance_id: instanceId,
  timeout_hours: timeoutHours.default(TIMEOUT_HOURS.default),
});

export const actBodySchema = z.strictObject({
  instance_id: instanceId,
  message: z.string().trim().min(1).max(10_000).describe('What to do next, for the model; with `actions`, a note recorded with them'),
  step_status: z
    .enum(STEP_STATUSES)
    .optional()
    .describe("Status of the plan's current step as the caller saw it: completed, failed, in_progress or pending"),
  site_id: siteIdSchema.optional(),
  activity: activitySchema.optional().describe('A new activity: the plan is regenerated for it'),
  user_id: uuidSchema.optional().describe('The user acting (must own the site)'),
  context: z
    .union([
      z.string().max(10_000),
      z.record(z.string(), z.unknown()).refine((o) => JSON.stringify(o).length <= 16_384, 'context must be at most 16 KB'),
    ])
    .optional()
    .describe('Anything the model should know (string or object, at most 16 KB)'),
  actions: z
    .array(actionSchema)
    .min(1)
    .max(ACT_MAX_ACTIONS)
    .optional()
    .describe(`Explicit browser actions (at most ${ACT_MAX_ACTIONS}): appended to the plan and performed in order, no model needed`),
});

export const assistantBodySchema = z.strictObject({
  message: z.string().trim().min(1).max(10_000).describe('The prompt'),
  instance_id: uuidSchema.optional().describe('Run on this instance; without it an uninstantiated instance is created'),
  site_id: siteIdSchema.optional().describe('Required when creating a new instance'),
  user_id: uuidSchema.optional().describe('Owner of a created instance (must own the site; default the site owner)'),
  tools: z
    .array(z.enum(ACTION_TYPES))
    .min(1)
    .max(ACTION_TYPES.length)
    .optional()
    .describe(`Browser actions the assistant may use (default all): ${ACTION_TYPES.join(', ')}`),
  use_sdk_tools: z
    .boolean()
    .default(false)
    .refine((v) => v === false, 'This deployment offers no SDK tool set beyond the browser actions; leave use_sdk_tools false')
    .describe('Must be false: the assistant uses the browser actions of `tools`'),
  system_prompt: z.string().max(10_000).optional().describe('Extra instructions for the model'),
});

export const RobotInstanceResultSchema = z.object({
  instance: InstanceSchema,
  plan: InstancePlanSchema.nullable().describe('The plan of the activity (its steps are made by act)'),
  created: z.boolean().describe('True when a new instance was created, false when one was resumed or reused'),
});

export const InstanceResultSchema = z.object({ instance: InstanceSchema });
export const DeletedInstanceSchema = z.object({ id: uuidSchema, deleted: z.literal(true) });

export const ActResultSchema = z.object({
  instance: InstanceSchema,
  plan: InstancePlanSchema,
  mode: z.enum(['continue', 'modify', 'regenerate']).describe('How the plan changed'),
  executed: z.array(PlanStepSchema).describe('Steps performed by this call, in order'),
});

export const AssistantStartedSchema = z.object({
  async: z.literal(true),
  workflowId: z.string(),
  runId: z.string(),
  instance_id: uuidSchema,
  status: z.literal('RUNNING'),
});

export type RobotInstanceBody = z.infer<typeof robotInstanceBodySchema>;
export type ActBody = z.infer<typeof actBodySchema>;
export type AssistantBody = z.infer<typeof assistantBodySchema>;
export type ActResult = z.infer<typeof ActResultSchema>;
