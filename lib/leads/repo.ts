import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { leads } from '@/lib/db/schema';

export type LeadRow = typeof leads.$inferSelect;

export async function findLead(siteId: string, leadId: string): Promise<LeadRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(leads).where(and(eq(leads.siteId, siteId), eq(leads.id, leadId))).limit(1);
  return row;
}

/**
 * Creates the site's lead for this email, or updates the given fields of the existing one
 * (one lead per email per site). Used when a visitor identifies themselves.
 */
export async function upsertLeadByEmail(
  siteId: string,
  input: { email: string; name: string; origin?: string | null },
): Promise<LeadRow> {
  const db = await getDb();
  const [row] = await db
    .insert(leads)
    .values({ siteId, email: input.email.toLowerCase(), name: input.name, origin: input.origin ?? null })
    .onConflictDoUpdate({
      target: [leads.siteId, leads.email],
      set: { name: input.name, updatedAt: new Date() },
    })
    .returning();
  return row;
}

/** The site's lead with this email (emails are stored lower-case). */
export async function findLeadByEmail(siteId: string, email: string): Promise<LeadRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.siteId, siteId), eq(leads.email, email.toLowerCase())))
    .limit(1);
  return row;
}
