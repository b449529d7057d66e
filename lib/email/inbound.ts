import { simpleParser } from 'mailparser';
import { submitInboundEmail } from '@/lib/agents/service';
import { config } from '@/lib/core/config';
import { ApiError, notFound } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { findLeadByEmail } from '@/lib/leads/service';
import type { Caller } from '@/lib/secure-tokens/service';
import { putProductSecret, readProductSecret } from '@/lib/secure-tokens/service';
import { bouncedRecipients, classify, fromAddress, threadIds } from './classify';
import { checkMailbox, fetchNewMessages, MailboxError, type MailboxConnection } from './mailbox';
import type { MailReactions } from './reactions';
import {
  deleteMailbox,
  findMailbox,
  findOutboundByMessageIds,
  insertInbound,
  linkInboundCommand,
  recordMailboxSync,
  saveMailbox,
  suppress,
  type MailboxRow,
} from './repo';
import type { Mailbox, MailboxCheck, MailboxInput } from './schema';

/**
 * The site's mailbox: where it is (a setting of the site), how to sign in (the password is a
 * secure token of the site, `mailbox.imap`, never stored in clear), and the sync that reads new
 * messages into the site's email log and hands the ones people wrote to the email agent.
 */
const SECRET_IDENTIFIER = 'mailbox.imap';

const toMailbox = (row: MailboxRow): Mailbox => ({
  host: row.host,
  port: row.port,
  tls: row.tls,
  username: row.username,
  folder: row.folder,
  secret_id: row.secretId,
  last_uid: row.lastUid,
  last_sync_at: row.lastSyncAt?.toISOString() ?? null,
  last_error_code: row.lastErrorCode,
});

export async function getMailbox(siteId: string): Promise<Mailbox | null> {
  const row = await findMailbox(siteId);
  return row ? toMailbox(row) : null;
}

/** Saves the mailbox; the password is required the first time and kept when omitted later. */
export async function configureMailbox(siteId: string, caller: Caller, input: MailboxInput): Promise<Mailbox> {
  const existing = await findMailbox(siteId);
  if (!existing && input.password === undefined)
    throw new ApiError('INVALID_REQUEST', 'password is required to set up the mailbox', { field: 'password' });
  const secretId =
    input.password !== undefined
      ? await putProductSecret(siteId, caller, { type: 'password', identifier: SECRET_IDENTIFIER, value: input.password })
      : existing!.secretId;
  return toMailbox(
    await saveMailbox(siteId, { host: input.host, port: input.port, tls: input.tls, username: input.username, folder: input.folder, secretId }),
  );
}

export async function removeMailbox(siteId: string): Promise<{ message: string }> {
  if (!(await deleteMailbox(siteId))) throw notFound('Mailbox');
  return { message: 'Mailbox removed; its password stays a secure token of the site until you delete it' };
}

async function connectionOf(siteId: string): Promise<{ row: MailboxRow; connection: MailboxConnection }> {
  const row = await findMailbox(siteId);
  if (!row) throw new MailboxError('MAILBOX_NOT_CONFIGURED', 'The site has no mailbox: set one up on the console’s Email page');
  const password = await readProductSecret(siteId, row.secretId);
  return { row, connection: { host: row.host, port: row.port, tls: row.tls, username: row.username, password, folder: row.folder } };
}

/** Signs in to the site's mailbox and opens its folder ("check connection"). */
export async function checkSiteMailbox(siteId: string): Promise<MailboxCheck> {
  try {
    const { connection } = await connectionOf(siteId);
    const { messages } = await checkMailbox(connection);
    return { ok: true, code: null, message: `Connected: ${messages} message${messages === 1 ? '' : 's'} in ${connection.folder}`, messages };
  } catch (error) {
    if (error instanceof MailboxError) return { ok: false, code: error.code, message: error.message, messages: null };
    throw error;
  }
}

export interface SyncSummary {
  fetched: number;
  stored: number;
  replies: number;
  from_leads: number;
  bounces: number;
  auto_replies: number;
  commands: { email_id: string; command_id: string; lead_id: string | null }[];
  /** Messages people wrote that no agent was given, and why (e.g. no model configured). */
  not_handed: { email_id: string; code: string }[];
  last_uid: number;
}

/**
 * Reads the messages that arrived since the last sync (by UID: a message is read once, and one
 * stored already is skipped, so a repeated or resumed sync changes nothing), threads each to the
 * site's earlier message (In-Reply-To / References) and lead (by address), and hands replies and
 * messages from leads to the email agent as commands. Bounces put the failed address on the
 * suppression list; automatic replies are only recorded. `since` skips older messages. Bounces
 * and replies are also reported to `reactions` (the sequences stop what they were sending).
 * Throws MailboxError (recorded on the mailbox) when the mailbox cannot be read.
 */
export async function syncMailbox(siteId: string, since: Date | null, reactions: MailReactions): Promise<SyncSummary> {
  let row: MailboxRow | undefined;
  let fetched: Awaited<ReturnType<typeof fetchNewMessages>>;
  try {
    const c = await connectionOf(siteId);
    row = c.row;
    fetched = await fetchNewMessages(c.connection, { uidValidity: row.uidValidity, lastUid: row.lastUid }, config().MAILBOX_SYNC_BATCH);
  } catch (error) {
    if (error instanceof MailboxError && row) await recordMailboxSync(siteId, { errorCode: error.code });
    throw error;
  }
  const position = fetched.uidValidity === row.uidValidity ? row.lastUid : 0;
  const summary: SyncSummary = {
    fetched: fetched.messages.length,
    stored: 0,
    replies: 0,
    from_leads: 0,
    bounces: 0,
    auto_replies: 0,
    commands: [],
    not_handed: [],
    last_uid: position,
  };
  for (const m of fetched.messages) {
    summary.last_uid = m.uid;
    if (since && m.receivedAt && m.receivedAt < since) continue;
    const raw = m.source.toString('utf8');
    const mail = await simpleParser(m.source, { skipHtmlToText: false, skipImageLinks: true, skipTextLinks: true });
    const sender = fromAddress(mail);
    const original = await findOutboundByMessageIds(siteId, threadIds(mail));
    const kind = classify(mail, original !== undefined);
    const leadId = original?.lead_id ?? (sender ? ((await findLeadByEmail(siteId, sender))?.id ?? null) : null);
    const text = (mail.text ?? '').slice(0, 50_000);
    const stored = await insertInbound(siteId, {
      mailboxKey: `${fetched.uidValidity}:${m.uid}`,
      fromAddress: sender || '(unknown sender)',
      toAddresses: (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [])
        .flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()))
        .filter(Boolean),
      subject: (mail.subject ?? '').slice(0, 998),
      textBody: text,
      messageId: mail.messageId ?? null,
      inReplyTo: threadIds(mail)[0] ?? null,
      kind,
      leadId,
      conversationId: original?.conversation_id ?? null,
    });
    if (!stored) continue;
    summary.stored += 1;
    if (kind === 'bounce') {
      summary.bounces += 1;
      for (const address of bouncedRecipients(raw)) {
        await suppress(siteId, address, 'bounced');
        await reactions.addressEnded(siteId, address, 'bounced');
      }
      continue;
    }
    if (kind === 'auto_reply') {
      summary.auto_replies += 1;
      continue;
    }
    if (kind === 'reply') {
      summary.replies += 1;
      // A reply to a sequence's message stops that lead's enrollment.
      await reactions.replyReceived(siteId, original!.id);
    }
    if (leadId) summary.from_leads += 1;
    if ((kind !== 'reply' && !leadId) || !sender || !text.trim()) continue;
    try {
      const submitted = await submitInboundEmail(siteId, {
        site_id: siteId,
        from: sender,
        ...(mail.from?.value[0]?.name ? { from_name: mail.from.value[0].name.slice(0, 200) } : {}),
        subject: (mail.subject ?? '').trim().slice(0, 998),
        text: text.trim(),
        ...(leadId ? { lead_id: leadId } : {}),
        ...(original?.conversation_id ? { conversation_id: original.conversation_id } : {}),
      });
      await linkInboundCommand(siteId, stored.id, { commandId: submitted.command_id, conversationId: submitted.conversation_id });
      summary.commands.push({ email_id: stored.id, command_id: submitted.command_id, lead_id: leadId });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      log.warn('inbound email not handed to the email agent', { site_id: siteId, email_id: stored.id, code: error.code, ...errorFields(error) });
      summary.not_handed.push({ email_id: stored.id, code: error.code });
    }
  }
  await recordMailboxSync(siteId, { uidValidity: fetched.uidValidity, lastUid: summary.last_uid, errorCode: null });
  return summary;
}
