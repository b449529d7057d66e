import { createHash, randomInt, randomUUID } from 'node:crypto';
import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError, found, notFound } from '@/lib/core/errors';
import { findLeadByEmail } from '@/lib/leads/service';
import { emailTransport, type OutgoingEmail } from '@/lib/providers/email';
import { getSite } from '@/lib/sites/service';
import type { MailReactions } from './reactions';
import {
  attemptCode,
  deleteRecipient,
  deleteSuppression,
  findRecipient,
  findSender,
  insertMessage,
  issueCode,
  listMessages,
  listRecipientRows,
  listSuppressions,
  saveSender,
  suppress,
  suppressedAmong,
  toRecipient,
  verifiedAmong,
} from './repo';
import type { ComposeEmailInput, EmailSender, EmailSenderInput, Recipient, SentEmail } from './schema';
import { readUnsubscribeToken, unsubscribeLinks } from './unsubscribe';

export { suppressedAmong, suppressionHash } from './repo';

/** What a message is linked to in the site's email log, and whether the product wrote it. */
export interface MessageLinks {
  leadId?: string | null;
  workflowId?: string | null;
  conversationId?: string | null;
  /** The product wrote the text (workflows, agents): it ends with the unsubscribe link. An app's own text is sent as is. */
  unsubscribeFooter?: boolean;
  /** The origin of the request that sends it, for its links when PUBLIC_URL is unset (a job has none: lib/core/public-url.ts). */
  requestOrigin?: string;
}

/**
 * Sends one message through the configured transport and records it in the site's email log.
 * Outbox (no SMTP_URL): the whole message is kept for the owner to read; nothing leaves the
 * machine. SMTP: the message is handed to the server and only its envelope is kept (a body may
 * hold a reset link or a code that has no business staying in a log). A refused delivery is
 * recorded as `failed` and answered 502 PROVIDER_ERROR.
 *
 * Every message comes from the site's sender identity and carries a Message-ID (replies are
 * threaded to it). An address on the site's suppression list is never written to (422
 * UNPROCESSABLE naming it, nothing sent); a message to one person carries List-Unsubscribe with
 * the one-click link (and, when the product wrote it, the link at the end of its text).
 */
const refuseSuppressed = (suppressed: string[]) =>
  new ApiError('UNPROCESSABLE', 'Recipients on the site’s suppression list (unsubscribed or bounced) are never written to', { suppressed });

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
/** An HTML body with the unsubscribe link at its end (before `</body>` when it has one). */
function withHtmlFooter(html: string, page: string): string {
  const footer = `<p style="font-size:12px;color:#666">To stop receiving these messages: <a href="${escapeAttr(page)}">unsubscribe</a></p>`;
  return /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${footer}</body>`) : `${html}${footer}`;
}

export async function sendEmail(
  siteId: string,
  appId: string | null,
  message: Omit<OutgoingEmail, 'from' | 'messageId' | 'headers'>,
  links: MessageLinks = {},
): Promise<SentEmail> {
  const suppressed = await suppressedAmong(siteId, message.to);
  if (suppressed.size) throw refuseSuppressed(message.to.filter((a) => suppressed.has(a)));
  const sender = await senderOf(siteId);
  const transport = emailTransport();
  const outgoing: OutgoingEmail = {
    ...message,
    from: `"${sender.from_name}" <${sender.from_address}>`,
    replyTo: message.replyTo ?? sender.reply_to ?? undefined,
    messageId: `<${randomUUID()}@${sender.from_address.split('@')[1]}>`,
  };
  if (message.to.length === 1) {
    const unsubscribe = unsubscribeLinks(siteId, message.to[0], links.requestOrigin);
    outgoing.headers = { 'List-Unsubscribe': `<${unsubscribe.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    if (links.unsubscribeFooter && outgoing.text !== undefined)
      outgoing.text = `${outgoing.text}\n\n--\nTo stop receiving these messages: ${unsubscribe.page}\n`;
    if (links.unsubscribeFooter && outgoing.html !== undefined) outgoing.html = withHtmlFooter(outgoing.html, unsubscribe.page);
  }
  const envelope = {
    appId,
    transport: transport.kind,
    fromAddress: outgoing.from,
    toAddresses: outgoing.to,
    subject: outgoing.subject,
    messageId: outgoing.messageId,
    leadId: links.leadId ?? null,
    workflowId: links.workflowId ?? null,
    conversationId: links.conversationId ?? null,
    inReplyTo: message.inReplyTo ?? null,
  };
  if (transport.kind === 'outbox') {
    await transport.deliver(outgoing);
    return sent(await insertMessage(siteId, { ...envelope, status: 'stored', textBody: outgoing.text ?? null, htmlBody: outgoing.html ?? null }));
  }
  let providerMessageId: string | null;
  try {
    ({ providerMessageId } = await transport.deliver(outgoing));
  } catch (error) {
    await insertMessage(siteId, { ...envelope, status: 'failed' });
    throw error;
  }
  return sent(await insertMessage(siteId, { ...envelope, status: 'sent', providerMessageId }));
}

/**
 * A message the site's owner writes in the console: from the site's sender, to one person (a
 * suppressed address is refused as for every message), linked to the lead with that address; its
 * List-Unsubscribe at the origin the console was reached at when PUBLIC_URL is unset (`requestOrigin`).
 */
export async function composeEmail(siteId: string, input: ComposeEmailInput, requestOrigin?: string): Promise<SentEmail> {
  const lead = await findLeadByEmail(siteId, input.to);
  return sendEmail(siteId, null, { to: [input.to], subject: input.subject, text: input.text }, { leadId: lead?.id ?? null, requestOrigin });
}

/** How mail leaves this deployment: handed to an SMTP server, or kept in the site's outbox. */
export const emailDelivery = (): { kind: 'smtp'; host: string } | { kind: 'outbox' } => {
  const url = config().SMTP_URL;
  if (!url) return { kind: 'outbox' };
  try {
    return { kind: 'smtp', host: new URL(url).host };
  } catch {
    return { kind: 'smtp', host: 'configured' };
  }
};

const sent = (m: Awaited<ReturnType<typeof insertMessage>>): SentEmail => ({
  id: m.id,
  transport: m.transport,
  status: m.status,
  to: m.to,
  provider_message_id: m.provider_message_id,
  message_id: m.message_id,
  created_at: m.created_at,
});

// ——— Sender identity ———

/** The address part of EMAIL_FROM (`Name <address>` or a bare address). */
const deploymentAddress = () => {
  const from = config().EMAIL_FROM;
  return (from.match(/<([^<>\s]+)>/)?.[1] ?? from).trim().toLowerCase();
};
const asDisplayName = (name: string) =>
  name
    .replace(/[\r\n"<>\\]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100) || 'Site Growth';

/** Who the site's messages come from: its own identity where set, else EMAIL_FROM's address with the site's name. */
export async function senderOf(siteId: string): Promise<EmailSender> {
  const { defaults: _defaults, ...sender } = await senderWithDefaults(siteId);
  return sender;
}

/** The identity in effect and the defaults it falls back to (the console shows both). */
export async function senderWithDefaults(siteId: string): Promise<EmailSender & { defaults: { from_address: string; from_name: string } }> {
  const [row, site] = await Promise.all([findSender(siteId), getSite(siteId)]);
  const defaults = { from_address: deploymentAddress(), from_name: asDisplayName(found(site, 'Site').name) };
  return {
    from_address: row?.fromAddress ?? defaults.from_address,
    from_name: row?.fromName ?? defaults.from_name,
    reply_to: row?.replyTo ?? null,
    customized: Boolean(row && (row.fromAddress || row.fromName || row.replyTo)),
    defaults,
  };
}

/** Changes the fields given (null: back to the default) and answers the identity in effect. */
export async function updateSender(siteId: string, input: EmailSenderInput): Promise<EmailSender> {
  const row = await findSender(siteId);
  const pick = <K extends keyof EmailSenderInput>(k: K, stored: string | null | undefined) => (input[k] === undefined ? (stored ?? null) : input[k]);
  await saveSender(siteId, {
    fromAddress: pick('from_address', row?.fromAddress),
    fromName: pick('from_name', row?.fromName),
    replyTo: pick('reply_to', row?.replyTo),
  });
  return senderOf(siteId);
}

// ——— Suppression list ———

/** The one-click unsubscribe: the token's address goes on its site's suppression list (and is reported to `reactions`). */
export async function unsubscribe(token: string, reactions: MailReactions): Promise<{ message: string }> {
  const named = readUnsubscribeToken(token);
  if (!named || !(await getSite(named.siteId))) throw new ApiError('INVALID_REQUEST', 'This unsubscribe link is not valid');
  await suppress(named.siteId, named.email, 'unsubscribed');
  await reactions.addressEnded(named.siteId, named.email, 'unsubscribed');
  return { message: 'Unsubscribed: no further email will be sent to this address' };
}

export const suppressionList = listSuppressions;

export async function removeSuppression(siteId: string, email: string): Promise<{ message: string }> {
  if (!(await deleteSuppression(siteId, email))) throw notFound('Suppressed address');
  return { message: 'Address removed from the suppression list' };
}

/** The email a lead was sent and sent back, newest first. */
export async function leadEmailHistory(siteId: string, leadId: string, page = { limit: 50, offset: 0 }) {
  return listMessages(siteId, { ...page, leadId });
}

export const emailLog = listMessages;

/** The addresses of `to` that are not verified recipients of the site. */
export async function unverifiedRecipients(siteId: string, to: string[]): Promise<string[]> {
  const verified = await verifiedAmong(siteId, to);
  return to.filter((address) => !verified.has(address));
}

// ——— Verification of the owner's addresses ———

/** Codes: 8 characters of an alphabet without look-alikes (40 bits), shown as XXXX-XXXX. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
const CODE_LENGTH = 8;
export const CODE_TTL_MS = 24 * 60 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_MIN_GAP_MS = 60_000;

const newCode = () => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
const codeHashOf = (siteId: string, email: string, code: string) => createHash('sha256').update(`${siteId}\n${email}\n${code}`).digest('hex');

export async function listRecipients(siteId: string): Promise<Recipient[]> {
  return (await listRecipientRows(siteId)).map(toRecipient);
}

/**
 * Adds an address of the owner (or sends it a new code) and mails it a verification code through
 * the email port. A verified address → 409; another code within a minute of the last → 429; an address on the
 * site's suppression list → 422, nothing stored.
 */
export async function addRecipient(siteId: string, email: string): Promise<Recipient> {
  // Refused before anything is stored: the code could never be mailed.
  if ((await suppressedAmong(siteId, [email])).size) throw refuseSuppressed([email]);
  const code = newCode();
  const expiresAt = new Date(currentDate().getTime() + CODE_TTL_MS);
  const issued = await issueCode(siteId, email, codeHashOf(siteId, email, code), expiresAt, CODE_MIN_GAP_MS);
  if ('refused' in issued) {
    if (issued.refused === 'verified') throw new ApiError('CONFLICT', 'This address is already verified');
    throw new ApiError(
      'RATE_LIMITED',
      'A code was sent less than a minute ago; wait before asking for another',
      { retry_after: 60 },
      { 'retry-after': '60' },
    );
  }
  const site = found(await getSite(siteId), 'Site');
  const siteName = site.name.replace(/\s+/g, ' ').trim();
  const shown = `${code.slice(0, 4)}-${code.slice(4)}`;
  await sendEmail(siteId, null, {
    to: [email],
    subject: `Your verification code for ${siteName}: ${shown}`,
    text:
      `Enter this code in the console of ${siteName} to let its generated apps send test email to this address:\n\n` +
      `    ${shown}\n\nThe code is valid for 24 hours. If you did not ask for it, ignore this message.\n`,
  });
  return toRecipient(issued.row);
}

export async function verifyRecipient(siteId: string, id: string, code: string): Promise<Recipient> {
  const row = found(await findRecipient(siteId, id), 'Recipient');
  if (row.verifiedAt) return toRecipient(row);
  if (!row.codeHash || !row.codeExpiresAt || row.codeExpiresAt.getTime() <= currentDate().getTime()) {
    throw new ApiError('INVALID_REQUEST', 'No valid code is pending for this address; ask for a new one');
  }
  if (row.failedAttempts >= CODE_MAX_ATTEMPTS) {
    throw new ApiError('INVALID_REQUEST', 'Too many wrong codes; ask for a new one');
  }
  const after = await attemptCode(siteId, id, codeHashOf(siteId, row.email, code), CODE_MAX_ATTEMPTS);
  if (!after) throw notFound('Recipient');
  if (!after.verifiedAt)
    throw new ApiError('INVALID_REQUEST', 'Wrong or expired code', { attempts_left: Math.max(0, CODE_MAX_ATTEMPTS - after.failedAttempts) });
  return toRecipient(after);
}

export async function removeRecipient(siteId: string, id: string): Promise<{ message: string }> {
  if (!(await deleteRecipient(siteId, id))) throw notFound('Recipient');
  return { message: 'Recipient removed' };
}
