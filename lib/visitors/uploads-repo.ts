import { eq, sql } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { visitorUploads } from '@/lib/db/schema';

/** Records a stored file of the site. */
export async function insertUpload(siteId: string, file: Omit<typeof visitorUploads.$inferInsert, 'siteId'>, on?: Db) {
  const db = on ?? (await getDb());
  const [inserted] = await db
    .insert(visitorUploads)
    .values({ ...file, siteId })
    .returning();
  return inserted;
}

/** Bytes of the files the site has stored (its upload quota counts these). */
export async function storedUploadBytes(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${visitorUploads.size}), 0)` })
    .from(visitorUploads)
    .where(eq(visitorUploads.siteId, siteId));
  return Number(row.n);
}
