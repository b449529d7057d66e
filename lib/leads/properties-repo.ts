import { and, asc, count, eq, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { leadProperties, leads } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import { MAX_PROPERTIES, type CreatePropertyInput, type LeadProperty, type UpdatePropertyInput } from './property-schema';

type Row = typeof leadProperties.$inferSelect;

const toProperty = (row: Row): LeadProperty => ({
  property_id: row.id,
  site_id: row.siteId,
  key: row.key,
  label: row.label,
  type: row.type,
  options: row.options,
  position: row.position,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** The site's custom property definitions, in their order. */
export async function listProperties(siteId: string): Promise<LeadProperty[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(leadProperties)
    .where(eq(leadProperties.siteId, siteId))
    .orderBy(asc(leadProperties.position), asc(leadProperties.createdAt), asc(leadProperties.id));
  return rows.map(toProperty);
}

export async function createProperty(siteId: string, input: CreatePropertyInput): Promise<LeadProperty> {
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      // The count and the insert in one transaction, the site's definitions locked: two creates at once cannot pass the cap together.
      await tx.execute(sql`select 1 from ${leadProperties} where ${leadProperties.siteId} = ${siteId} for update`);
      const [{ n }] = await tx.select({ n: count() }).from(leadProperties).where(eq(leadProperties.siteId, siteId));
      if (Number(n) >= MAX_PROPERTIES) throw new ApiError('CONFLICT', `A site may define at most ${MAX_PROPERTIES} custom properties`);
      const [row] = await tx
        .insert(leadProperties)
        .values({ siteId, key: input.key, label: input.label, type: input.type, options: input.options ?? [], position: Number(n) })
        .returning();
      return toProperty(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('CONFLICT', `A custom property with the key "${input.key}" already exists for this site`, { key: input.key });
    throw error;
  }
}

export async function findProperty(siteId: string, id: string): Promise<LeadProperty | undefined> {
  const row = await findOfSite(leadProperties, siteId, id);
  return row && toProperty(row);
}

/** How many of the site's leads hold `value` for `key`. */
async function leadsHolding(siteId: string, key: string, value: string): Promise<number> {
  const db = await getDb();
  const [{ n }] = await db
    .select({ n: count() })
    .from(leads)
    .where(and(eq(leads.siteId, siteId), sql`${leads.customProperties} @> ${JSON.stringify({ [key]: value })}::jsonb`));
  return Number(n);
}

/** Changes label, options (choice) or position; an option removed while leads still hold it is 409. */
export async function updateProperty(siteId: string, id: string, input: UpdatePropertyInput): Promise<LeadProperty> {
  const current = found(await findProperty(siteId, id), 'Custom property');
  if (input.options !== undefined) {
    if (current.type !== 'choice')
      throw new ApiError('INVALID_REQUEST', 'Only a choice property has options', {
        issues: [{ path: 'body.options', message: 'Only a choice property has options' }],
      });
    if (input.options.length === 0)
      throw new ApiError('INVALID_REQUEST', 'A choice property needs options', {
        issues: [{ path: 'body.options', message: 'A choice property needs options' }],
      });
    const kept = new Set(input.options.map((o) => o.toLowerCase()));
    for (const removed of current.options.filter((o) => !kept.has(o.toLowerCase()))) {
      const n = await leadsHolding(siteId, current.key, removed);
      if (n > 0)
        throw new ApiError('CONFLICT', `The option "${removed}" is held by ${n} lead(s); change their value first`, { option: removed, leads: n });
    }
  }
  const db = await getDb();
  const [row] = await db
    .update(leadProperties)
    .set({
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.options !== undefined ? { options: input.options } : {}),
      ...(input.position !== undefined ? { position: input.position } : {}),
      updatedAt: currentDate(),
    })
    .where(and(eq(leadProperties.siteId, siteId), eq(leadProperties.id, id)))
    .returning();
  return toProperty(found(row, 'Custom property'));
}

/** Deletes the definition and its value from every lead of the site, in one transaction. */
export async function deleteProperty(siteId: string, id: string): Promise<{ property_id: string; cleared_leads: number }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(leadProperties)
      .where(and(eq(leadProperties.siteId, siteId), eq(leadProperties.id, id)))
      .returning();
    const deleted = found(row, 'Custom property');
    const cleared = await tx
      .update(leads)
      .set({ customProperties: sql`${leads.customProperties} - ${deleted.key}::text` })
      .where(and(eq(leads.siteId, siteId), sql`${leads.customProperties} ? ${deleted.key}`))
      .returning({ id: leads.id });
    return { property_id: deleted.id, cleared_leads: cleared.length };
  });
}
