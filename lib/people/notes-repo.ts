import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { iso } from '@/lib/db/expressions';
import { rows } from '@/lib/db/raw';
import type { NoteSchema } from './schema';

type Note = z.infer<typeof NoteSchema>;

/** Who writes a note: a member (user id) or an API key. */
export type NoteAuthor = { userId: string } | { keyId: string };

interface NoteRow {
  id: string;
  lead_id: string;
  body: string;
  author_user_id: string | null;
  author_key_id: string | null;
  author_name: string | null;
  created_at: string;
}

const toNote = (r: NoteRow): Note => ({
  id: r.id,
  lead_id: r.lead_id,
  body: r.body,
  author: r.author_key_id ? { type: 'key', id: r.author_key_id, name: r.author_name } : { type: 'member', id: r.author_user_id, name: r.author_name },
  created_at: r.created_at,
});

/** The select list of a note with its author's name (the member's name or email, the key's name). */
const NOTE_COLUMNS = sql`n.id, n.lead_id, n.body, n.author_user_id, n.author_key_id,
  coalesce(u.name, u.email, k.name) as author_name, ${iso(sql`n.created_at`)} as created_at`;
const AUTHOR_JOINS = sql`left join users u on u.id = n.author_user_id left join api_keys k on k.id = n.author_key_id`;

/** Writes a note on the site's lead; undefined when the lead is not the site's. */
export async function insertNote(siteId: string, leadId: string, author: NoteAuthor, body: string): Promise<Note | undefined> {
  const userId = 'userId' in author ? author.userId : null;
  const keyId = 'keyId' in author ? author.keyId : null;
  const [row] = await rows<NoteRow>(sql`
    with inserted as (
      insert into lead_notes (site_id, lead_id, author_user_id, author_key_id, body)
      select ${siteId}::uuid, l.id, ${userId}::uuid, ${keyId}::uuid, ${body}
        from leads l where l.site_id = ${siteId}::uuid and l.id = ${leadId}::uuid
      returning *
    )
    select ${NOTE_COLUMNS} from inserted n ${AUTHOR_JOINS}`);
  return row && toNote(row);
}

/** A page of the lead's notes, newest first, with their total. */
export async function listNotes(siteId: string, leadId: string, page: { limit: number; offset: number }): Promise<{ items: Note[]; total: number }> {
  const [items, [{ n }]] = await Promise.all([
    rows<NoteRow>(sql`select ${NOTE_COLUMNS} from lead_notes n ${AUTHOR_JOINS}
      where n.site_id = ${siteId}::uuid and n.lead_id = ${leadId}::uuid
      order by n.created_at desc, n.id desc limit ${page.limit} offset ${page.offset}`),
    rows<{ n: number }>(sql`select count(*)::int as n from lead_notes where site_id = ${siteId}::uuid and lead_id = ${leadId}::uuid`),
  ]);
  return { items: items.map(toNote), total: n };
}

/** Deletes one note of the site's lead; the deleted note, or undefined when there was none. */
export async function deleteNote(siteId: string, leadId: string, noteId: string): Promise<Note | undefined> {
  const [row] = await rows<NoteRow>(sql`
    with deleted as (
      delete from lead_notes where site_id = ${siteId}::uuid and lead_id = ${leadId}::uuid and id = ${noteId}::uuid returning *
    )
    select ${NOTE_COLUMNS} from deleted n ${AUTHOR_JOINS}`);
  return row && toNote(row);
}
