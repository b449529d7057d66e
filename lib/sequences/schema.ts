import { z } from 'zod';
import { isoTimestamp, LIST_LIMIT_MAX, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { templateProblems, TEMPLATE_VARIABLES } from './template';

/**
 * Outreach sequences: a named list of email steps per site, each sent `delay_minutes` after the
 * previous one to every enrolled lead until the lead replies, bounces, unsubscribes or is removed.
 */
const VARIABLES_SENTENCE = `Variables: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}; a fallback after a bar (\`{{first_name|there}}\`) is used when the lead has no value. An unknown variable is refused.`;

/** A subject or body template: its variables are checked when the sequence is saved. */
const template = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty')
    .max(max)
    .superRefine((value, ctx) => {
      for (const message of templateProblems(value)) ctx.addIssue({ code: 'custom', message });
    })
    .describe(`${what}. ${VARIABLES_SENTENCE}`);

export const StepSchema = z.strictObject({
  delay_minutes: z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 60)
    .describe('Minutes after the previous step (after enrollment for the first step), 0–525600'),
  subject: template(500, 'Subject template'),
  subject_variants: z
    .array(template(500, 'Another subject (A/B test)'))
    .max(3)
    .optional()
    .describe("Up to 3 more subjects: each lead gets one of `subject` and these in turn; the step's figures show the split"),
  body: template(
    50_000,
    'Body template, plain text or HTML by `format` (the unsubscribe link is added at the end; variable values are escaped in HTML)',
  ),
  kind: z
    .enum(['email', 'agent'])
    .optional()
    .describe(
      '`email` (default): `subject` and `body` are sent as written. `agent`: the email agent writes the body from the lead and `body`, which holds its instructions (a template too); `subject` is the subject template. A step of this kind is plain text',
    ),
  review: z
    .boolean()
    .optional()
    .describe(
      'Agent-drafted steps: true (default) — each draft waits in its enrollment for approval (POST …/enrollments/{lead_id}/approve); false — sent as the agent wrote it',
    ),
  format: z
    .enum(['text', 'html'])
    .optional()
    .describe(
      '`text` (default): a plain-text message, links tracked, no open pixel. `html`: an HTML message with its text alternative, links tracked and an open pixel',
    ),
});
export type Step = z.infer<typeof StepSchema>;

const HOUR = z.number().int().min(0).max(24);
export const SendWindowSchema = z
  .strictObject({
    days: z.array(z.number().int().min(1).max(7)).min(1).max(7).describe('ISO weekdays on which mail goes out (1 = Monday … 7 = Sunday)'),
    start_hour: HOUR.describe("First hour of the day mail goes out (0–23), in the site's time zone"),
    end_hour: HOUR.describe("Hour at which sending stops (1–24, after start_hour), in the site's time zone"),
  })
  .refine((w) => w.start_hour < w.end_hour, { message: 'end_hour must be after start_hour', path: ['end_hour'] })
  .describe(
    "When steps may go out, in the site's time zone (settings → business hours; UTC when unset). A step due outside waits for the next allowed hour",
  );
export type SendWindow = z.infer<typeof SendWindowSchema>;

export const STOP_STATUSES = ['converted', 'lost'] as const;

const options = {
  send_window: SendWindowSchema.nullable(),
  daily_cap: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .nullable()
    .describe(
      "At most this many of the site's messages per day (the site's day, in its time zone: settings → business hours; UTC when unset); null: no cap",
    ),
  domain_per_minute: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .nullable()
    .describe('At most this many messages per minute to one recipient domain; null: no limit'),
  stop_on_status: z
    .array(z.enum(STOP_STATUSES))
    .max(2)
    .describe("Lead statuses that also end a lead's enrollment (reply, bounce and unsubscribe always do)"),
  tracking: z
    .boolean()
    .describe(
      'Open and click tracking (default on): links go through signed redirects, HTML steps carry an open pixel. Off: messages go out as written',
    ),
};

const name = z.string().trim().min(1).max(200).describe('Name of the sequence');
const steps = z.array(StepSchema).min(1).max(20).describe('The steps, in order (1–20)');
const status = z.enum(['active', 'paused']).describe('paused: nothing is sent until it is active again');

export const createSequenceBodySchema = z.strictObject({
  site_id: siteIdSchema,
  name,
  steps,
  status: status.optional(),
  send_window: options.send_window.optional(),
  daily_cap: options.daily_cap.optional(),
  domain_per_minute: options.domain_per_minute.optional(),
  stop_on_status: options.stop_on_status.optional(),
  tracking: options.tracking.optional(),
});
export type CreateSequenceInput = z.infer<typeof createSequenceBodySchema>;

export const updateSequenceBodySchema = z.strictObject({
  site_id: siteIdSchema,
  name: name.optional(),
  status: status.optional().describe('`paused` holds every enrollment; `active` resumes them'),
  steps: steps
    .optional()
    .describe(
      'The whole list of steps: the steps already sent to a lead must be given unchanged (409 otherwise); later ones may change, be added or removed',
    ),
  send_window: options.send_window.optional().describe('When steps may go out; null: at any time'),
  daily_cap: options.daily_cap.optional(),
  domain_per_minute: options.domain_per_minute.optional(),
  stop_on_status: options.stop_on_status.optional(),
  tracking: options.tracking.optional().describe('Open and click tracking of the messages sent from now on'),
});
export type UpdateSequenceInput = z.infer<typeof updateSequenceBodySchema>;

export const sequenceIdParams = z.object({ id: uuidSchema.describe('Sequence id') });
export const enrollmentParams = z.object({
  id: uuidSchema.describe('Sequence id'),
  lead_id: uuidSchema.describe('The enrolled lead'),
});
export const siteQuerySchema = z.strictObject({ site_id: siteIdSchema });
export const approveDraftBodySchema = z.strictObject({
  site_id: siteIdSchema,
  subject: z.string().trim().min(1).max(500).optional().describe('The subject to send instead of the draft’s'),
  body: z.string().trim().min(1).max(50_000).optional().describe('The body to send instead of the draft’s (plain text)'),
});
export type ApproveDraftInput = z.infer<typeof approveDraftBodySchema>;

export const ENROLLMENT_STATUSES = ['active', 'completed', 'stopped', 'failed'] as const;
export const getSequenceQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  enrollment_status: z.enum(ENROLLMENT_STATUSES).optional().describe('Only enrollments in this status'),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(50).describe(`Enrollments per page, 1–${LIST_LIMIT_MAX} (default 50)`),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('Enrollments to skip (default 0)'),
});
export type GetSequenceQuery = z.infer<typeof getSequenceQuerySchema>;

export const enrollBodySchema = z
  .union([
    z.strictObject({ site_id: siteIdSchema, lead_ids: z.array(uuidSchema).min(1).max(1_000).describe('Leads to enroll (1–1000)') }),
    z.strictObject({ site_id: siteIdSchema, segment_id: uuidSchema.describe("Enroll the segment's leads (up to 10,000)") }),
  ])
  .describe('Either `lead_ids` or `segment_id`');
export type EnrollInput = z.infer<typeof enrollBodySchema>;

export const siteBodySchema = z.strictObject({ site_id: siteIdSchema });

const count = (what: string) => z.number().int().describe(what);
const messageFigures = {
  sent: count('Messages sent'),
  opened: count('Messages opened, each once however often (open pixel of HTML steps, or a click; tracked sequences only)'),
  clicked: count('Messages with a tracked link clicked, each once however often'),
  replied: count('Messages answered by the lead'),
  bounced: count('Messages that bounced'),
  unsubscribed: count('Messages from which the lead unsubscribed'),
};
export const FiguresSchema = z.object({
  enrolled: count('Leads enrolled'),
  active: count('Enrollments still running'),
  completed: count('Enrollments that received every step'),
  stopped: count('Enrollments stopped (reply, bounce, unsubscribe, lead status, removal)'),
  failed: count('Enrollments that failed: a step could not be sent after every retry'),
  ...messageFigures,
});
export type Figures = z.infer<typeof FiguresSchema>;

export const StepFiguresSchema = z.object({
  step: z.number().int().describe('Step index, from 0'),
  waiting: count('Running enrollments whose next message is this step'),
  ...messageFigures,
  variants: z
    .array(z.object({ variant: z.number().int().describe('0: `subject`, 1…: `subject_variants`'), subject: z.string(), ...messageFigures }))
    .describe('The split between the A/B subjects of the step'),
});

export const SequenceSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  name: z.string(),
  status: z.enum(['active', 'paused']),
  steps: z.array(StepSchema),
  send_window: SendWindowSchema.nullable(),
  daily_cap: z.number().int().nullable(),
  domain_per_minute: z.number().int().nullable(),
  stop_on_status: z.array(z.enum(STOP_STATUSES)),
  tracking: z.boolean().describe('Open and click tracking of its messages'),
  figures: FiguresSchema.describe('Totals over every enrollment and message'),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Sequence = z.infer<typeof SequenceSchema>;

export const STOP_REASONS = ['replied', 'bounced', 'unsubscribed', 'removed', 'converted', 'lost'] as const;
export const EnrollmentSchema = z.object({
  id: uuidSchema,
  lead_id: uuidSchema,
  email: z.string(),
  status: z.enum(ENROLLMENT_STATUSES).describe('`failed`: a step could not be sent after every retry (see `failure`)'),
  failure: z.string().nullable().describe('Why a `failed` enrollment failed (`MODEL_NOT_CONFIGURED: …` when an agent-drafted step had no model)'),
  draft: z
    .object({
      step: z.number().int().describe('The step it was written for'),
      subject: z.string(),
      body: z.string(),
      approved: z.boolean().describe('false: waiting for approval (the enrollment holds until then)'),
      created_at: isoTimestamp,
    })
    .nullable()
    .describe("The email agent's draft of the next step (agent-drafted steps), until it is sent"),
  stop_reason: z.enum(STOP_REASONS).nullable().describe('Why a stopped enrollment stopped'),
  next_step: z.number().int().describe('Index of the next step to send (the number of steps once completed)'),
  next_send_at: isoTimestamp.nullable().describe('When the next step is due (before the send window, cap and throttle are applied); null once ended'),
  created_at: isoTimestamp,
  stopped_at: isoTimestamp.nullable(),
  completed_at: isoTimestamp.nullable(),
});
export type Enrollment = z.infer<typeof EnrollmentSchema>;

export const SequenceDetailSchema = SequenceSchema.extend({
  step_figures: z.array(StepFiguresSchema).describe('Figures per step'),
  enrollments: z.array(EnrollmentSchema).describe('Enrollments, newest first (a page: `limit`, `offset`)'),
  enrollments_total: z.number().int().describe('Enrollments matching `enrollment_status`'),
});
export type SequenceDetail = z.infer<typeof SequenceDetailSchema>;

export const EnrollResultSchema = z.object({
  enrolled: count('Leads enrolled by this call'),
  already_enrolled: count('Leads that were enrolled before (a lead is enrolled once per sequence)'),
  suppressed: count("Leads skipped: their address is on the site's suppression list"),
  ineligible: count('Leads skipped: their status is one the sequence stops on'),
  enrollments: z.array(EnrollmentSchema).describe('The enrollments this call made'),
});
export type EnrollResult = z.infer<typeof EnrollResultSchema>;

/** The query of the public tracking links: other parameters a mail client or scanner appends are ignored. */
export const trackingQuerySchema = z.object({
  t: z.string().min(10).max(8_000).describe('The signed token of the pixel or link'),
});

// ——— Tools (REST under /api/agents/tools/sequences/*, MCP, agents): the same operations, named by ids in the body ———

const sequenceIdField = uuidSchema.describe('The sequence');
export const getSequencesToolInput = z.strictObject({ site_id: siteIdSchema });
export const getSequenceToolInput = getSequenceQuerySchema.extend({
  sequence_id: sequenceIdField,
  limit: z.number().int().min(1).max(LIST_LIMIT_MAX).default(50).describe(`Enrollments per page, 1–${LIST_LIMIT_MAX} (default 50)`),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe('Enrollments to skip (default 0)'),
});
export const updateSequenceToolInput = updateSequenceBodySchema.extend({ sequence_id: sequenceIdField });
export const enrollToolInput = z
  .strictObject({
    site_id: siteIdSchema,
    sequence_id: sequenceIdField,
    lead_ids: z.array(uuidSchema).min(1).max(1_000).optional().describe('Leads to enroll (1–1000)'),
    segment_id: uuidSchema.optional().describe("Enroll the segment's leads (up to 10,000)"),
  })
  .refine((v) => (v.lead_ids === undefined) !== (v.segment_id === undefined), { message: 'Give either lead_ids or segment_id', path: ['lead_ids'] });
export const unenrollToolInput = z.strictObject({
  site_id: siteIdSchema,
  sequence_id: sequenceIdField,
  lead_id: uuidSchema.describe('The enrolled lead'),
});
export const SequenceListResultSchema = z.object({
  sequences: z.array(SequenceSchema).describe("The site's sequences, newest first, with their figures"),
});
export const SequenceResultSchema = z.object({ sequence: SequenceSchema });
export const SequenceDetailResultSchema = z.object({ sequence: SequenceDetailSchema });
export const EnrollResultToolSchema = z.object({ result: EnrollResultSchema });
export const EnrollmentResultSchema = z.object({ enrollment: EnrollmentSchema });
