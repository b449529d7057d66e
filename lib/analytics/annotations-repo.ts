import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';

export interface AnnotationRow {
  id: string;
  date: string;
  text: string;
  created_at: string;
  updated_at: string;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const COLUMNS = sql.raw(
  `id, to_char(day, 'YYYY-MM-DD') as date, text, to_char(created_at at time zone 'UTC', ${ISO}) as created_at, to_char(updated_at at time zone 'UTC', ${ISO}) as updated_at`,
);

/** The site's annotations from `from` to `to` (both included, either open), by day then creation. */
export function listAnnotations(siteId: string, from: string | undefined, to: string | undefined, limit: number): Promise<AnnotationRow[]> {
  return rows<AnnotationRow>(sql`
    select ${COLUMNS} from analytics_annotations
    where site_id = ${siteId} ${from ? sql`and day >= ${from}::date` : sql``} ${to ? sql`and day <= ${to}::date` : sql``}
    order by day, created_at, id limit ${limit}`);
}

export async function insertAnnotation(siteId: string, date: string, text: string): Promise<AnnotationRow> {
  const [row] = await rows<AnnotationRow>(sql`
    insert into analytics_annotations (site_id, day, text) values (${siteId}, ${date}::date, ${text}) returning ${COLUMNS}`);
  return row;
}

/** Changes an annotation of the site; undefined when the site has none of that id. */
export async function updateAnnotation(siteId: string, id: string, change: { date?: string; text?: string }): Promise<AnnotationRow | undefined> {
  const [row] = await rows<AnnotationRow>(sql`
    update analytics_annotations
    set day = coalesce(${change.date ?? null}::date, day), text = coalesce(${change.text ?? null}::text, text), updated_at = now()
    where site_id = ${siteId} and id = ${id} returning ${COLUMNS}`);
  return row;
}

export async function deleteAnnotation(siteId: string, id: string): Promise<boolean> {
  const found = await rows<{ id: string }>(sql`delete from analytics_annotations where site_id = ${siteId} and id = ${id} returning id`);
  return found.length > 0;
}
