import { z } from 'zod';
import { isoTimestamp, listQueryPagination, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import type { remoteInstances } from '@/lib/db/schema';

/**
 * Remote instances (spec §2.8), their logs and plans (§2.9). What the spec leaves open is fixed
 * here: the complete status list (a state machine, ./states.ts), the allowed log and plan values,
 * the bounds of every field. Environment variables are secrets: stored sealed, shown by name only.
 */
export const INSTANCE_STATUSES = ['uninstantiated', 'pending', 'starting', 'running', 'paused', 'stopping', 'stopped', 'error'] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];
// The column's type and this list are the same set.
type StoredStatus = (typeof remoteInstances.$inferSelect)['status'];
const _sameStatuses: [StoredStatus, InstanceStatus] extends [InstanceStatus, StoredStatus] ? true : never = true;
void _sameStatuses;

export const INSTANCE_TYPES = ['browser', 'ubuntu', 'windows'] as const;
/** Statuses an instance may be created with; the others are reached through operations. */
export const CREATE_STATUSES = ['uninstantiated', 'pending'] as const;
export const LOG_TYPES = ['system', 'agent_action', 'user_action', 'tool_call', 'error'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const PLAN_TYPES = ['objective', 'task', 'step'] as const;
export const PLAN_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export const STEP_STATUSES = ['completed', 'failed', 'in_progress', 'pending'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export type LogType = (typeof LOG_TYPES)[number];

const OBJECT_MAX_BYTES = 16 * 1024;
export const boundedObject = (what: string) =>
  z
    .record(z.string(), z.unknown())
    .refine((o) => JSON.stringify(o).length <= OBJECT_MAX_BYTES, `${what} must be at most 16 KB serialized`)
    .describe(`${what} (JSON object, at most 16 KB)`);

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
export const ENV_VARS_MAX = 50;
/** What an environment variable's value reads as in every answer. */
export const HIDDEN_VALUE = '********';
const envVarsSchema = z
  .record(z.string().regex(ENV_NAME, 'Names are letters, digits and _ (not starting with a digit), at most 128'), z.string().max(4096))
  .refine((o) => Object.keys(o).length <= ENV_VARS_MAX, `At most ${ENV_VARS_MAX} environment variables`)
  .describe(
    `Environment variables of the machine (at most ${ENV_VARS_MAX}, values up to 4096 characters). Stored encrypted; answers show the names with the value ${HIDDEN_VALUE}. An update replaces the whole set.`,
  );

/** An optional list filter on one of `values`, its description naming them. */
const onlyOneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .enum(values)
    .optional()
    .describe(`Only ${what}: ${values.join(', ')}`);

/** The query of an instance's logs or plans: the key's site, the given filters and a page. */
const instanceListQuery = <S extends z.ZodRawShape>(filters: S) =>
  z.strictObject({ site_id: siteIdSchema.optional(), ...filters, ...listQueryPagination });

const nameSchema = z.string().trim().min(1).max(200).describe('Name of the instance');
const instanceTypeSchema = z.enum(INSTANCE_TYPES).describe('browser (default), ubuntu or windows; the robot providers run browsers');

export const instanceParamsSchema = z.strictObject({ id: uuidSchema.describe('The instance') });

export const listInstancesQuerySchema = z.strictObject({
  site_id: siteIdSchema.optional().describe("Site id (UUID); optional, the key's site is the one listed"),
  status: onlyOneOf(INSTANCE_STATUSES, 'instances in this status'),
  instance_type: instanceTypeSchema.optional().describe('Only instances of this type'),
  ...listQueryPagination,
});

export const createInstanceBodySchema = z.strictObject({
  site_id: siteIdSchema,
  user_id: uuidSchema.describe('A user who owns the site (403 otherwise)'),
  name: nameSchema,
  instance_type: instanceTypeSchema.default('browser'),
  status: z
    .enum(CREATE_STATUSES)
    .default('uninstantiated')
    .describe('uninstantiated (default) or pending; the other statuses are reached through the robot operations'),
  agent_id: uuidSchema.optional().describe('Agent assigned to the instance'),
  configuration: boundedObject('Configuration').optional(),
  environment_variables: envVarsSchema.optional(),
});

export const updateInstanceBodySchema = z
  .strictObject({
    site_id: siteIdSchema.optional(),
    name: nameSchema.optional(),
    status: z
      .enum(INSTANCE_STATUSES)
      .optional()
      .describe('running (start or resume the browser), paused (pause it) or stopped (stop it); an impossible transition is 409 CONFLICT'),
    agent_id: uuidSchema.nullable().optional().describe('Agent assigned to the instance; null clears it'),
    configuration: boundedObject('Configuration').optional(),
    environment_variables: envVarsSchema.optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'site_id'), 'Give at least one field to change')
  .describe('Only the given fields change; the instance type is fixed at creation');

export const InstanceSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  user_id: uuidSchema,
  name: z.string(),
  instance_type: z.enum(INSTANCE_TYPES),
  status: z.enum(INSTANCE_STATUSES).describe('See the state machine in docs/PRODUCT.md ("Instances and robots")'),
  agent_id: uuidSchema.nullable(),
  configuration: z.record(z.string(), z.unknown()),
  environment_variables: z.record(z.string(), z.string()).describe(`Names of the environment variables; every value reads ${HIDDEN_VALUE}`),
  activity: z.string().nullable().describe('What the robot was last asked to do'),
  current_url: z.string().nullable().describe('Page the browser is on (kept while paused)'),
  timeout_hours: z.number().describe('A running instance stops by itself this long after it started or resumed'),
  started_at: isoTimestamp.nullable(),
  expires_at: isoTimestamp.nullable().describe('When the running instance stops by itself'),
  screenshot_url: z.string().nullable().describe('Latest screenshot (GET, same API key), or null'),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Instance = z.infer<typeof InstanceSchema>;

export const listLogsQuerySchema = instanceListQuery({
  log_type: onlyOneOf(LOG_TYPES, 'logs of this type'),
  level: onlyOneOf(LOG_LEVELS, 'logs of this level'),
});

export const createLogBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  log_type: z.enum(LOG_TYPES).describe(`Kind of entry: ${LOG_TYPES.join(', ')}`),
  level: z
    .enum(LOG_LEVELS)
    .default('info')
    .describe(`${LOG_LEVELS.join(', ')} (default info)`),
  message: z.string().trim().min(1).max(10_000).describe('What happened'),
  details: boundedObject('Details').optional(),
});

export const InstanceLogSchema = z.object({
  id: uuidSchema,
  instance_id: uuidSchema,
  site_id: uuidSchema,
  log_type: z.enum(LOG_TYPES),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  screenshot_url: z.string().nullable().describe('Screenshot taken with this entry (GET, same API key), or null'),
  created_at: isoTimestamp,
});
export type InstanceLog = z.infer<typeof InstanceLogSchema>;

export const listPlansQuerySchema = instanceListQuery({
  status: onlyOneOf(PLAN_STATUSES, 'plans in this status'),
  plan_type: onlyOneOf(PLAN_TYPES, 'plans of this type'),
});

export const createPlanBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  title: z.string().trim().min(1).max(200).describe('Title'),
  description: z.string().max(5000).optional().describe('Description'),
  plan_type: z.enum(PLAN_TYPES).describe(`${PLAN_TYPES.join(', ')}`),
  status: z
    .enum(PLAN_STATUSES)
    .default('pending')
    .describe(`${PLAN_STATUSES.join(', ')} (default pending)`),
  priority: z.number().int().min(0).max(1000).default(0).describe('0–1000, higher first (default 0)'),
  instructions: z.string().max(10_000).optional().describe('Instructions for the robot'),
});

/** One browser action a robot can perform (robot act). */
export const actionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('navigate'), url: z.string().url().max(2048).describe('http(s) URL to open') }),
  z.strictObject({ type: z.literal('click'), selector: z.string().min(1).max(500).describe('Element to click (CSS or Playwright selector)') }),
  z.strictObject({
    type: z.literal('type'),
    selector: z.string().min(1).max(500).describe('Field to fill'),
    text: z.string().max(5000).describe('Text that replaces the field value'),
    submit: z.boolean().default(false).describe('Press Enter afterwards'),
  }),
  z.strictObject({ type: z.literal('wait'), selector: z.string().min(1).max(500).describe('Wait until this element is visible') }),
  z.strictObject({
    type: z.literal('extract'),
    selector: z.string().min(1).max(500).default('body').describe('Element whose text is read (default body)'),
  }),
  z.strictObject({ type: z.literal('screenshot') }),
]);
export type RobotAction = z.infer<typeof actionSchema>;

export const PlanStepSchema = z.object({
  index: z.number().int(),
  description: z.string(),
  action: z.record(z.string(), z.unknown()).nullable().describe('The browser action of the step, when it has one'),
  status: z.enum(STEP_STATUSES),
  output: z.string().nullable().describe('Text the step read, when it read some'),
  error: z.string().nullable(),
  log_id: uuidSchema.nullable().describe('The instance log that recorded the step'),
});
export type PlanStep = z.infer<typeof PlanStepSchema>;

export const InstancePlanSchema = z.object({
  id: uuidSchema,
  instance_id: uuidSchema,
  site_id: uuidSchema,
  title: z.string(),
  description: z.string().nullable(),
  plan_type: z.enum(PLAN_TYPES),
  status: z.enum(PLAN_STATUSES),
  priority: z.number().int(),
  instructions: z.string().nullable(),
  steps: z.array(PlanStepSchema).describe('Steps of a robot plan (robot act); empty for plans written through this route'),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type InstancePlan = z.infer<typeof InstancePlanSchema>;

export const screenshotQuerySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  log_id: uuidSchema.optional().describe("The log entry whose screenshot is wanted (default: the instance's latest)"),
});

export type CreateInstanceInput = z.infer<typeof createInstanceBodySchema>;
export type UpdateInstanceInput = z.infer<typeof updateInstanceBodySchema>;
export type ListInstancesQuery = z.infer<typeof listInstancesQuerySchema>;
export type ListLogsQuery = z.infer<typeof listLogsQuerySchema>;
export type CreateLogInput = z.infer<typeof createLogBodySchema>;
export type ListPlansQuery = z.infer<typeof listPlansQuerySchema>;
export type CreatePlanInput = z.infer<typeof createPlanBodySchema>;
