import { eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';

type StoredSettings = Record<string, unknown>;

/** The site's stored settings (`{}` when none were saved), or undefined for an unknown site. */
export async function readSettings(siteId: string): Promise<StoredSettings | undefined> {
  const db = await getDb();
  const [row] = await db.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return row ? (row.settings ?? {}) : undefined;
}

/**
 * Read-modify-write of the site's settings under the row lock: `change` gets what is stored and answers what to
 * store (it may throw to write nothing). Answers `change`'s result, or undefined for an unknown site.
 */
export async function changeSettings<T extends StoredSettings>(siteId: string, change: (stored: StoredSettings) => T): Promise<T | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId)).for('update').limit(1);
    if (!row) return undefined;
    const next = change(row.settings ?? {});
    await tx
      .update(sites)
      .set({ settings: next, updatedAt: sql`now()` })
      .where(eq(sites.id, siteId));
    return next;
  });
}
