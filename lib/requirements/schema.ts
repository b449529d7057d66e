import { z } from 'zod';
import { createBodySchema, defineResource, field, listBodySchema, resultSchemas, updateBodySchema } from '@/lib/core/resource';
import { uuidSchema } from '@/lib/core/schemas';

/**
 * Requirements (AI goals). Enums as the spec gives them. Types the spec leaves open: `type` a
 * short free-form label (for example `content`, `research`, `outreach`), `budget` the token cap,
 * an integer ≥ 0, `instructions` text of at most 20,000 characters.
 */
export const REQUIREMENT_STATUSES = ['backlog', 'validated', 'in-progress', 'on-review', 'done', 'canceled'] as const;
export const COMPLETION_STATUSES = ['pending', 'completed', 'rejected'] as const;
export const PRIORITIES = ['high', 'medium', 'low'] as const;

const statusSchema = z.enum(REQUIREMENT_STATUSES).describe(`Work status: ${REQUIREMENT_STATUSES.join(', ')} (default backlog)`);
const completionSchema = z.enum(COMPLETION_STATUSES).describe(`Outcome: ${COMPLETION_STATUSES.join(', ')} (default pending)`);
const prioritySchema = z.enum(PRIORITIES).describe('high, medium or low (default medium)');
const titleSchema = z.string().trim().min(1).max(500).describe('What is to be achieved');

/** Every field of a requirement, once: column, input and output (lib/core/resource.ts). */
export const requirementResource = defineResource({
  name: 'Requirement',
  id: 'requirement_id',
  fields: {
    title: field('title', { in: titleSchema, out: z.string(), create: 'required', update: 'optional' }),
    type: field('type', {
      in: z.string().trim().min(1).max(100).describe('Kind of work, a short label (e.g. content, research, outreach)'),
      out: z.string().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    priority: field('priority', { in: prioritySchema, out: z.enum(PRIORITIES), create: 'optional', update: 'optional' }),
    status: field('status', { in: statusSchema, out: z.enum(REQUIREMENT_STATUSES), create: 'optional', update: 'optional' }),
    completion_status: field('completionStatus', { in: completionSchema, out: z.enum(COMPLETION_STATUSES), create: 'optional', update: 'optional' }),
    instructions: field('instructions', {
      in: z.string().max(20_000).describe("How to do it; states whether the work is an external deliverable or uses the service's tools"),
      out: z.string().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    budget: field('budget', {
      in: z.number().int().min(0).max(2_147_483_647).describe('Token cap for the work, an integer ≥ 0'),
      out: z.number().int().nullable().describe('Token cap'),
      create: 'optional',
      update: 'clearable',
    }),
  },
});

export const createRequirementInputSchema = createBodySchema(requirementResource);

export const updateRequirementInputSchema = updateBodySchema(
  requirementResource,
  'requirement_id',
  'Only the given fields change; null clears type, instructions or budget',
);

export const listRequirementsFilters = {
  requirement_id: uuidSchema.optional().describe('Only this requirement'),
  status: statusSchema.optional().describe('Only requirements with this status'),
  priority: prioritySchema.optional().describe('Only requirements with this priority'),
  completion_status: completionSchema.optional().describe('Only requirements with this completion status'),
};

export const listRequirementsInputSchema = listBodySchema(listRequirementsFilters);

export const RequirementSchema = requirementResource.schema;

export const { result: RequirementResultSchema, list: RequirementListSchema } = resultSchemas(RequirementSchema, 'requirement', 'requirements');

export type Requirement = z.infer<typeof RequirementSchema>;
export type CreateRequirementInput = z.infer<typeof createRequirementInputSchema>;
export type UpdateRequirementInput = z.infer<typeof updateRequirementInputSchema>;
export type ListRequirementsInput = z.infer<typeof listRequirementsInputSchema>;
