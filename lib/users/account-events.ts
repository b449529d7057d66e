import { currentDate } from '@/lib/core/clock';
import { insertAccountEvent, listAccountEvents, type StoredAccountEvent } from './events-repo';
import type { AccountEvent, AccountEventKind } from './schema';

/** Who was calling when something happened to an account: the client address and user agent. */
export interface Client {
  ip: string;
  userAgent: string | null;
}

export const UNKNOWN_CLIENT: Client = { ip: 'unknown', userAgent: null };

const USER_AGENT_MAX = 300;

export interface AccountEventInput {
  userId: string;
  /** The site it happened on (a member's invitation or role), absent for the account itself. */
  siteId?: string | null;
  kind: AccountEventKind;
  ip?: string | null;
  userAgent?: string | null;
  /** Small facts about the event (a session id, a role, a count); never a secret, code or password. */
  detail?: Record<string, string | number | boolean | null>;
}

/**
 * Writes one entry of the account audit log. Callable from any domain that changes something of an
 * account (members, invitations, roles): `kind` is one of ACCOUNT_EVENT_KINDS.
 */
export async function recordAccountEvent(event: AccountEventInput): Promise<void> {
  await insertAccountEvent({
    userId: event.userId,
    siteId: event.siteId ?? null,
    kind: event.kind,
    ip: event.ip && event.ip !== 'unknown' ? event.ip : null,
    userAgent: event.userAgent ? event.userAgent.slice(0, USER_AGENT_MAX) : null,
    detail: event.detail ?? {},
    createdAt: currentDate(),
  });
}

const present = (row: StoredAccountEvent): AccountEvent => ({
  id: row.id,
  kind: row.kind as AccountEventKind,
  site_id: row.siteId,
  user_id: row.userId,
  ip: row.ip,
  user_agent: row.userAgent,
  detail: row.detail,
  created_at: row.createdAt.toISOString(),
});

/** The account's audit log, newest first. */
export async function accountEvents(userId: string, page: { limit: number; offset: number }) {
  const { items, total } = await listAccountEvents({ userId }, page);
  return { items: items.map(present), total };
}

/** What happened on one site across its members' accounts, newest first (for the site's owner and admins). */
export async function siteAccountEvents(siteId: string, page: { limit: number; offset: number }) {
  const { items, total } = await listAccountEvents({ siteId }, page);
  return { items: items.map(present), total };
}
