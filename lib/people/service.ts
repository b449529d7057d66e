import { now } from '@/lib/core/clock';
import { ApiError, found, notFound } from '@/lib/core/errors';
import { log } from '@/lib/core/log';
import type { ApiKeyPrincipal, SessionPrincipal } from '@/lib/core/principal';
import { flushKeyUsage } from '@/lib/keys/usage';
import { findLead } from '@/lib/leads/service';
import { fileStorage } from '@/lib/providers/storage';
import { recordAccountEvent, type Client } from '@/lib/users/account-events';
import { eraseLead, eraseVisitor, visitorLead, type Erased } from './erase-repo';
import { personData } from './export-repo';
import { mergeLeads } from './merge-repo';
import { deleteNote, insertNote, listNotes } from './notes-repo';
import type { Erasure, MergeBody, PersonExport, TimelineType } from './schema';
import { timelinePage, type TimelineCursor } from './timeline-repo';

type Caller = ApiKeyPrincipal | SessionPrincipal;

async function requireLead(siteId: string, leadId: string): Promise<void> {
  found(await findLead(siteId, leadId), 'Lead');
}

/** Writes a note on the lead: its author is the signed-in member or the API key. */
export async function addNote(siteId: string, leadId: string, caller: Caller, body: string) {
  const author = caller.kind === 'session' ? { userId: caller.user.id } : { keyId: caller.keyId };
  return found(await insertNote(siteId, leadId, author, body), 'Lead');
}

export async function notesOf(siteId: string, leadId: string, page: { limit: number; offset: number }) {
  await requireLead(siteId, leadId);
  return listNotes(siteId, leadId, page);
}

export async function removeNote(siteId: string, leadId: string, noteId: string) {
  return found(await deleteNote(siteId, leadId, noteId), 'Note');
}

const encodeCursor = (c: TimelineCursor) => Buffer.from(JSON.stringify([c.atUs, c.type, c.id])).toString('base64url');

function decodeCursor(text: string): TimelineCursor {
  try {
    const [atUs, type, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof atUs === 'string' && /^\d+(\.\d+)?$/.test(atUs) && typeof type === 'string' && typeof id === 'string' && id.length <= 80) {
      return { atUs, type, id };
    }
  } catch {
    // answered below
  }
  throw new ApiError('INVALID_REQUEST', 'cursor must be the next_cursor of a previous page');
}

/** One page of the lead's timeline, newest first. */
export async function timelineOf(siteId: string, leadId: string, q: { limit: number; cursor?: string; types?: TimelineType[] }) {
  const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
  await requireLead(siteId, leadId);
  const { items, next } = await timelinePage(siteId, leadId, { limit: q.limit, cursor, types: q.types });
  return { items, next_cursor: next && encodeCursor(next) };
}

export const mergeLead = async (siteId: string, leadId: string, body: MergeBody) => (await mergeLeads(siteId, leadId, body)).result;

/** Everything stored about the person behind the lead. */
export async function exportPerson(siteId: string, leadId: string): Promise<PersonExport> {
  const data = found(await personData(siteId, leadId), 'Lead');
  return { exported_at: new Date(now()).toISOString(), ...data };
}

/** Files of erased uploads leave the storage once the rows are gone; one that fails is logged, the erasure stands. */
async function removeFiles(keys: string[]): Promise<void> {
  const storage = fileStorage();
  for (const key of keys)
    await storage.remove(key).catch((error: unknown) => log.warn('erasure: a file could not be removed', { key, error: String(error) }));
}

const answer = (e: Erased): Erasure => ({
  erased: true,
  deleted: {
    leads: e.leads,
    visitors: e.visitors,
    sessions: e.sessions,
    events: e.events,
    emails: e.emails,
    conversations: e.conversations,
    files: e.files,
  },
  suppressed: e.suppressed,
});

/** What the audit log keeps of an erasure: counts only, never an id or address of the person. */
const auditDetail = (e: Erased) => ({ visitors: e.visitors, sessions: e.sessions, events: e.events, emails: e.emails, files: e.files });

/** Erases the lead and everything about the person; recorded in the site's audit log without personal data. */
export async function erasePerson(siteId: string, leadId: string, caller: SessionPrincipal, client?: Client): Promise<Erasure> {
  // Requests counted in this process but not yet written name the lead in their paths: written first, then erased.
  await flushKeyUsage();
  const erased = await eraseLead(siteId, leadId);
  if (!erased) throw notFound('Lead');
  await removeFiles(erased.storageKeys);
  await recordAccountEvent({
    userId: caller.user.id,
    siteId,
    kind: 'person_erased',
    ip: client?.ip,
    userAgent: client?.userAgent,
    detail: auditDetail(erased),
  });
  return answer(erased);
}

/** Erases a visitor without a lead (a visitor linked to a lead is erased with the lead). */
export async function eraseAnonymousVisitor(siteId: string, visitorId: string, caller: SessionPrincipal, client?: Client): Promise<Erasure> {
  const lead = await visitorLead(siteId, visitorId);
  if (lead === undefined) throw notFound('Visitor');
  if (lead !== null)
    throw new ApiError('CONFLICT', 'This visitor is linked to a lead: erase the lead, which erases its visitors too', { lead_id: lead });
  await flushKeyUsage();
  const erased = await eraseVisitor(siteId, visitorId);
  if (!erased) throw notFound('Visitor');
  await removeFiles(erased.storageKeys);
  await recordAccountEvent({
    userId: caller.user.id,
    siteId,
    kind: 'visitor_erased',
    ip: client?.ip,
    userAgent: client?.userAgent,
    detail: auditDetail(erased),
  });
  return answer(erased);
}
