import {
  RequirementListSchema,
  RequirementResultSchema,
  createRequirementInputSchema,
  listRequirementsInputSchema,
  updateRequirementInputSchema,
} from '@/lib/requirements/schema';
import { createRequirement, requirementsPage, updateRequirement } from '@/lib/requirements/service';
import { defineTool } from './define-tool';

export const createRequirementTool = defineTool({
  name: 'createRequirement',
  effect: 'append',
  path: 'requirements/create',
  title: 'Create a requirement',
  description:
    'Creates a requirement (AI goal). `title` is required; `priority` high|medium|low (default medium), `status` backlog|validated|in-progress|on-review|done|canceled (default backlog), `completion_status` pending|completed|rejected (default pending), `type` a short label, `instructions` text, `budget` the token cap (integer ≥ 0).',
  scope: 'write',
  creates: true,
  input: createRequirementInputSchema,
  output: RequirementResultSchema,
  run: async ({ siteId }, input) => ({ requirement: await createRequirement(siteId, input) }),
});

export const getRequirementsTool = defineTool({
  name: 'getRequirements',
  effect: 'read',
  path: 'requirements/get',
  title: 'List requirements',
  description:
    "Lists the site's requirements, newest first; optionally one by `requirement_id`, or filtered by `status`, `priority`, `completion_status`. `limit` 1–500 (default 50), `offset`.",
  scope: 'read',
  input: listRequirementsInputSchema,
  output: RequirementListSchema,
  run: ({ siteId }, input) => requirementsPage(siteId, input),
});

export const updateRequirementTool = defineTool({
  name: 'updateRequirement',
  effect: 'overwrite',
  path: 'requirements/update',
  title: 'Update a requirement',
  description:
    'Changes the given fields of a requirement (fields as create; null clears type, instructions or budget). Status and completion status may move to any value. A requirement of another site is a 404.',
  scope: 'write',
  input: updateRequirementInputSchema,
  output: RequirementResultSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, input) => ({ requirement: await updateRequirement(siteId, input) }),
});
