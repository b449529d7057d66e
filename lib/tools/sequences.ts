import {
  EnrollmentResultSchema,
  EnrollResultToolSchema,
  SequenceDetailResultSchema,
  SequenceListResultSchema,
  SequenceResultSchema,
  createSequenceBodySchema,
  enrollToolInput,
  getSequenceToolInput,
  getSequencesToolInput,
  unenrollToolInput,
  updateSequenceToolInput,
} from '@/lib/sequences/schema';
import { createSequence, enroll, getSequence, listSequences, unenroll, updateSequence } from '@/lib/sequences/service';
import { defineTool } from './define-tool';

/** Outreach sequences as tools: the operations of /api/sequences, with the sequence named in the body. */
export const getSequencesTool = defineTool({
  name: 'getSequences',
  effect: 'read',
  path: 'sequences/get',
  title: 'List sequences',
  description:
    "Lists the site's outreach sequences, newest first, each with its steps, options and total figures (enrolled, active, sent, opened, clicked, replied…).",
  scope: 'read',
  input: getSequencesToolInput,
  output: SequenceListResultSchema,
  run: async ({ siteId }) => ({ sequences: await listSequences(siteId) }),
});

export const getSequenceTool = defineTool({
  name: 'getSequence',
  effect: 'read',
  path: 'sequences/detail',
  title: 'Get a sequence',
  description:
    'One sequence by `sequence_id`: its steps, figures per step and A/B subject, and a page of its enrollments with their status and next send time (`enrollment_status`, `limit`, `offset`). Another site’s sequence is a 404.',
  scope: 'read',
  input: getSequenceToolInput,
  output: SequenceDetailResultSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, { sequence_id, ...query }) => ({ sequence: await getSequence(siteId, sequence_id, query) }),
});

export const createSequenceTool = defineTool({
  name: 'createSequence',
  effect: 'append',
  path: 'sequences/create',
  title: 'Create a sequence',
  description:
    'Creates an outreach sequence: `name` and `steps` (each `delay_minutes` after the previous, a `subject` and `body` template with {{first_name}}, {{name}}, {{company}}, {{position}}, {{site_name}}… and fallbacks `{{first_name|there}}`; an unknown variable is refused). Options: `send_window`, `daily_cap`, `domain_per_minute`, `stop_on_status`, `tracking`, `status`.',
  scope: 'write',
  creates: true,
  input: createSequenceBodySchema,
  output: SequenceResultSchema,
  run: async ({ siteId }, input) => ({ sequence: await createSequence(siteId, input) }),
});

export const updateSequenceTool = defineTool({
  name: 'updateSequence',
  effect: 'overwrite',
  path: 'sequences/update',
  title: 'Update or pause a sequence',
  description:
    'Changes the given fields of sequence `sequence_id`: `status` `paused` holds every enrollment, `active` resumes them; `steps` replaces the list (steps already sent must be given unchanged: 409 otherwise); a changed delay moves the leads waiting for that step.',
  scope: 'write',
  input: updateSequenceToolInput,
  output: SequenceResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  run: async ({ siteId }, { sequence_id, ...input }) => ({ sequence: await updateSequence(siteId, sequence_id, input) }),
});

export const enrollInSequenceTool = defineTool({
  name: 'enrollInSequence',
  effect: 'append',
  path: 'sequences/enroll',
  title: 'Enroll leads in a sequence',
  description:
    'Enrolls leads in sequence `sequence_id`, by `lead_ids` or a `segment_id` (one of them). A lead is enrolled once per sequence; suppressed addresses and leads whose status the sequence stops on are skipped and counted.',
  scope: 'write',
  input: enrollToolInput,
  output: EnrollResultToolSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, { sequence_id, lead_ids, segment_id }) => ({
    result: await enroll(siteId, sequence_id, segment_id ? { site_id: siteId, segment_id } : { site_id: siteId, lead_ids: lead_ids! }),
  }),
});

export const unenrollFromSequenceTool = defineTool({
  name: 'unenrollFromSequence',
  effect: 'overwrite',
  path: 'sequences/unenroll',
  title: 'Take a lead out of a sequence',
  description:
    'Stops lead `lead_id` in sequence `sequence_id`: nothing more is sent to it; it stays listed, stopped (`removed`). An enrollment that ended already is left as it is.',
  scope: 'write',
  input: unenrollToolInput,
  output: EnrollmentResultSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, { sequence_id, lead_id }) => ({ enrollment: await unenroll(siteId, sequence_id, lead_id) }),
});
