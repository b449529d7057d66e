import { z } from 'zod';
import { isoTimestamp, PaginationMetaSchema, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { LEAD_FIELDS } from '@/lib/leads/schema';

/**
 * A person in the CRM: the notes written on a lead, its timeline (everything that happened with
 * the person, newest first), the merge of two leads of one person, the export of everything
 * stored about them, and their erasure.
 */

export const leadPathSchema = z.strictObject({ lead_id: uuidSchema.describe('Lead id') });
export const notePathSchema = z.strictObject({ lead_id: uuidSchema.describe('Lead id'), note_id: uuidSchema.describe('Note id') });
export const visitorPathSchema = z.strictObject({ visitor_id: uuidSchema.describe('Visitor id') });
export const siteQuerySchema = z.strictObject({ site_id: siteIdSchema });

export const NOTE_MAX = 10_000;

/** `{total, limit, offset, has_more}` beside a list (tool answers). */
export const PaginationShape = PaginationMetaSchema.shape;

export const createNoteBodySchema = z.strictObject({
  site_id: siteIdSchema,
  body: z.string().trim().min(1, 'body must not be empty').max(NOTE_MAX).describe(`The note, plain text (1–${NOTE_MAX} characters)`),
});

export const listNotesQuerySchema = z.strictObject({ site_id: siteIdSchema, ...paginationQuerySchema.shape });

export const NoteAuthorSchema = z
  .object({
    type: z.enum(['member', 'key']).describe('member: written in the console or with a session; key: written through an API key'),
    id: uuidSchema.nullable().describe('The member (user id) or the API key; null once the member left'),
    name: z.string().nullable().describe("The member's name or email, or the key's name"),
  })
  .describe('Who wrote the note');

export const NoteSchema = z.object({
  id: uuidSchema,
  lead_id: uuidSchema,
  body: z.string(),
  author: NoteAuthorSchema,
  created_at: isoTimestamp,
});

export const TIMELINE_TYPES = ['session', 'event', 'email', 'note', 'status_change', 'field_change', 'conversation', 'sequence'] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

export const timelineQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Items per page, 1–100 (default 50)'),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'cursor must be the next_cursor of a previous page')
    .optional()
    .describe('The `next_cursor` of the previous page (absent: the newest items)'),
  types: z
    .string()
    .max(200)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const list = [...new Set(v.split(',').map((t) => t.trim()))];
      const bad = list.filter((t) => !(TIMELINE_TYPES as readonly string[]).includes(t));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `Unknown type(s): ${bad.join(', ')}; one of ${TIMELINE_TYPES.join(', ')}` });
      return list as TimelineType[];
    })
    .describe(`Only these types, comma-separated (${TIMELINE_TYPES.join(', ')}); default all`),
});
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;

const json = z.unknown();
export const TimelineItemSchema = z
  .object({
    type: z.enum(TIMELINE_TYPES).describe('What happened'),
    at: isoTimestamp.describe('When it happened'),
    id: z.string().describe('Id of the underlying record (session, event, email, note, conversation, enrollment or change)'),
    // session
    url: z.string().nullable().optional().describe('session: the landing page; event: the page'),
    referrer: z.string().nullable().optional(),
    utm_source: z.string().nullable().optional(),
    duration_ms: z.number().nullable().optional().describe('session: its length so far'),
    pages: z
      .array(z.object({ url: z.string().nullable(), at: isoTimestamp }))
      .optional()
      .describe('session: the pages viewed, in order (at most 100)'),
    // event
    session_id: z.string().optional(),
    event_type: z.string().optional(),
    event_name: z.string().nullable().optional(),
    properties: json.optional(),
    // email
    direction: z.enum(['inbound', 'outbound']).optional(),
    subject: z.string().optional(),
    from: z.string().optional(),
    to: z.array(z.string()).optional(),
    status: z.string().optional().describe('email: stored, sent, failed or received; sequence: the enrollment status'),
    // note
    body: z.string().optional(),
    author: NoteAuthorSchema.optional(),
    // status_change, field_change
    field: z.string().optional(),
    from_value: json.optional().describe('status_change / field_change: the value before'),
    to_value: json.optional().describe('status_change / field_change: the value after'),
    // conversation
    agent: z.string().optional(),
    title: z.string().optional(),
    messages: z.number().int().optional(),
    // sequence
    sequence_id: z.string().optional(),
    sequence_name: z.string().optional(),
    action: z.enum(['started', 'stopped', 'completed', 'step_sent']).optional(),
    step: z.number().int().optional().describe('sequence step_sent: the step (1-based)'),
    stop_reason: z.string().nullable().optional(),
  })
  .describe('One entry of the timeline: `type` and `at`, with the fields of its type');
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

export const TimelineSchema = z.object({
  items: z.array(TimelineItemSchema).describe('Newest first'),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last page'),
});

/** What a merge chooses between: every field of a lead. */
export const MERGE_FIELDS = LEAD_FIELDS;
export type MergeField = (typeof MERGE_FIELDS)[number];

export const mergeBodySchema = z.strictObject({
  site_id: siteIdSchema,
  other_lead_id: uuidSchema.describe('The lead merged into this one, then deleted'),
  fields: z
    .partialRecord(z.enum(MERGE_FIELDS), z.enum(['kept', 'other']))
    .optional()
    .describe(
      'Per field, whose value the kept lead takes. By default the kept lead keeps its values and takes the other lead’s where it ' +
        'has none; `custom_properties`: whose values win where both have one (the other’s fill the gaps either way); ' +
        '`notes`: the kept lead’s, else the other’s (the two are joined when both have notes and no choice is given)',
    ),
});
export type MergeBody = z.infer<typeof mergeBodySchema>;

const moved = (what: string) => z.number().int().describe(`${what} moved to the kept lead`);
export const MergeResultSchema = z.object({
  lead_id: uuidSchema.describe('The kept lead'),
  merged_lead_id: uuidSchema.describe('The lead that was merged in and deleted'),
  moved: z.object({
    visitors: moved('Visitors'),
    sessions: moved('Sessions'),
    emails: moved('Emails'),
    notes: moved('Notes'),
    conversations: moved('Conversations'),
    enrollments: moved('Sequence enrollments'),
  }),
  enrollments_dropped: z
    .array(z.object({ sequence_id: uuidSchema, enrollment_id: uuidSchema }))
    .describe('Enrollments of the other lead in a sequence both were in: the less advanced one was removed'),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

export const PersonExportSchema = z
  .object({
    exported_at: isoTimestamp,
    site_id: uuidSchema,
    lead: z.record(z.string(), z.unknown()).describe('The lead as stored (every column, custom properties included)'),
    visitors: z.array(z.record(z.string(), z.unknown())),
    sessions: z.array(z.record(z.string(), z.unknown())).describe('Each with its `events`'),
    emails: z.array(z.record(z.string(), z.unknown())),
    notes: z.array(z.record(z.string(), z.unknown())),
    field_changes: z.array(z.record(z.string(), z.unknown())),
    conversations: z.array(z.record(z.string(), z.unknown())).describe('Each with its `messages`'),
    enrollments: z.array(z.record(z.string(), z.unknown())).describe('Each with the `messages` of its steps'),
    uploads: z.array(z.record(z.string(), z.unknown())).describe('Files the person uploaded (metadata)'),
  })
  .describe('Everything stored about the person');
export type PersonExport = z.infer<typeof PersonExportSchema>;

export const eraseLeadQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  erase: z.literal('true').describe('Must be `true`: the lead is erased with everything stored about the person (this cannot be undone)'),
});

export const ErasureSchema = z.object({
  erased: z.literal(true),
  deleted: z
    .object({
      leads: z.number().int(),
      visitors: z.number().int(),
      sessions: z.number().int(),
      events: z.number().int(),
      emails: z.number().int(),
      conversations: z.number().int(),
      files: z.number().int(),
    })
    .describe('How many records were deleted'),
  suppressed: z.boolean().describe('The address went on the suppression list (as a hash): the person is never mailed again'),
});
export type Erasure = z.infer<typeof ErasureSchema>;
