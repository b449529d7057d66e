import { z } from 'zod';
import { clearableFields, isoTimestamp, listBodyPagination, listResultShape, optionalFields, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

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

const clearable = {
  type: z.string().trim().min(1).max(100).describe('Kind of work, a short label (e.g. content, research, outreach)'),
  instructions: z
    .string()
    .max(20_000)
    .describe("How to do it; states whether the work is an external deliverable or uses the service's tools"),
  budget: z.number().int().min(0).max(2_147_483_647).describe('Token cap for the work, an integer ≥ 0'),
};
const enums = { priority: prioritySchema, status: statusSchema, completion_status: completionSchema };

export const createRequirementInputSchema = z.strictObject({
  site_id: siteIdSchema,
  title: titleSchema,
  ...optionalFields(enums),
  ...optionalFields(clearable),
});

export const updateRequirementInputSchema = z
  .strictObject({
    site_id: siteIdSchema,
    requirement_id: uuidSchema.describe('The requirement to update'),
    title: titleSchema.optional(),
    ...optionalFields(enums),
    ...clearableFields(clearable),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'site_id' && k !== 'requirement_id'), 'Give at least one field to change')
  .describe('Only the given fields change; null clears type, instructions or budget');

export const listRequirementsFilters = {
  requirement_id: uuidSchema.optional().describe('Only this requirement'),
  status: statusSchema.optional().describe('Only requirements with this status'),
  priority: prioritySchema.optional().describe('Only requirements with this priority'),
  completion_status: completionSchema.optional().describe('Only requirements with this completion status'),
};

export const listRequirementsInputSchema = z.strictObject({
  site_id: siteIdSchema,
  ...listRequirementsFilters,
  ...listBodyPagination,
});

export const RequirementSchema = z.object({
  requirement_id: uuidSchema,
  site_id: uuidSchema,
  title: z.string(),
  type: z.string().nullable(),
  priority: z.enum(PRIORITIES),
  status: z.enum(REQUIREMENT_STATUSES),
  completion_status: z.enum(COMPLETION_STATUSES),
  instructions: z.string().nullable(),
  budget: z.number().int().nullable().describe('Token cap'),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

export const RequirementResultSchema = z.object({ requirement: RequirementSchema });
export const RequirementListSchema = z.object({ requirements: z.array(RequirementSchema), ...listResultShape });

export type Requirement = z.infer<typeof RequirementSchema>;
export type CreateRequirementInput = z.infer<typeof createRequirementInputSchema>;
export type UpdateRequirementInput = z.infer<typeof updateRequirementInputSchema>;
export type ListRequirementsInput = z.infer<typeof listRequirementsInputSchema>;
