import { eq, type SQL } from 'drizzle-orm';
import { requirements } from '@/lib/db/schema';
import { siteScoped } from '@/lib/db/site-scoped';
import {
  requirementResource,
  type CreateRequirementInput,
  type ListRequirementsInput,
  type Requirement,
  type UpdateRequirementInput,
} from './schema';

const repo = siteScoped(requirements, requirementResource);

export const createRequirement = (siteId: string, input: CreateRequirementInput): Promise<Requirement> => repo.create(siteId, input);

export const updateRequirement = (siteId: string, input: UpdateRequirementInput): Promise<Requirement> =>
  repo.update(siteId, input.requirement_id, input);

/** Newest first. */
export function listRequirements(siteId: string, q: Omit<ListRequirementsInput, 'site_id'>): Promise<{ items: Requirement[]; total: number }> {
  const filters: (SQL | undefined)[] = [];
  if (q.requirement_id) filters.push(eq(requirements.id, q.requirement_id));
  if (q.status) filters.push(eq(requirements.status, q.status));
  if (q.priority) filters.push(eq(requirements.priority, q.priority));
  if (q.completion_status) filters.push(eq(requirements.completionStatus, q.completion_status));
  return repo.list(siteId, filters, q);
}
