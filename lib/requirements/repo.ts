import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { pickColumns } from '@/lib/db/columns';
import { getDb } from '@/lib/db/client';
import { requirements } from '@/lib/db/schema';
import { found } from '@/lib/core/errors';
import type { CreateRequirementInput, ListRequirementsInput, Requirement, UpdateRequirementInput } from './schema';

type RequirementRow = typeof requirements.$inferSelect;
type RequirementColumns = Omit<Partial<typeof requirements.$inferInsert>, 'id' | 'siteId' | 'createdAt'>;

const toRequirement = (row: RequirementRow): Requirement => ({
  requirement_id: row.id,
  site_id: row.siteId,
  title: row.title,
  type: row.type,
  priority: row.priority,
  status: row.status,
  completion_status: row.completionStatus,
  instructions: row.instructions,
  budget: row.budget,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

function columnsOf(input: Partial<Omit<UpdateRequirementInput, 'site_id' | 'requirement_id'>>): RequirementColumns {
  return pickColumns<RequirementColumns>(input, {
    title: 'title',
    type: 'type',
    priority: 'priority',
    status: 'status',
    completion_status: 'completionStatus',
    instructions: 'instructions',
    budget: 'budget',
  });
}

export async function createRequirement(siteId: string, input: CreateRequirementInput): Promise<Requirement> {
  const db = await getDb();
  const { site_id: _site, ...fields } = input;
  const [row] = await db.insert(requirements).values({ ...columnsOf(fields), siteId, title: input.title }).returning();
  return toRequirement(row);
}

export async function updateRequirement(siteId: string, input: UpdateRequirementInput): Promise<Requirement> {
  const db = await getDb();
  const { site_id: _site, requirement_id: requirementId, ...fields } = input;
  const [row] = await db
    .update(requirements)
    .set({ ...columnsOf(fields), updatedAt: new Date() })
    .where(and(eq(requirements.siteId, siteId), eq(requirements.id, requirementId)))
    .returning();
  return toRequirement(found(row, 'Requirement'));
}

/** Newest first. */
export async function listRequirements(
  siteId: string,
  q: Omit<ListRequirementsInput, 'site_id'>,
): Promise<{ items: Requirement[]; total: number }> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(requirements.siteId, siteId)];
  if (q.requirement_id) filters.push(eq(requirements.id, q.requirement_id));
  if (q.status) filters.push(eq(requirements.status, q.status));
  if (q.priority) filters.push(eq(requirements.priority, q.priority));
  if (q.completion_status) filters.push(eq(requirements.completionStatus, q.completion_status));
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(requirements).where(where).orderBy(desc(requirements.createdAt), desc(requirements.id)).limit(q.limit).offset(q.offset),
    db.select({ total: count() }).from(requirements).where(where),
  ]);
  return { items: rows.map(toRequirement), total: Number(total) };
}
