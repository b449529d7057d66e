import type { ParsedMail } from 'mailparser';
import type { InboundKind } from './schema';

/**
 * What an inbound message is, before anyone answers it. Bounces (delivery reports) and automatic
 * replies (out of office, autoresponders) are recorded but never handed to an agent: answering
 * them starts mail loops. Everything else is a person writing.
 */
const header = (mail: ParsedMail, name: string): string => {
  const value = mail.headers.get(name);
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.toLowerCase();
  if (typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value).toLowerCase();
  return String(value).toLowerCase();
};

const fromAddress = (mail: ParsedMail): string => (mail.from?.value[0]?.address ?? '').toLowerCase();

export function isBounce(mail: ParsedMail): boolean {
  const local = fromAddress(mail).split('@')[0];
  if (local === 'mailer-daemon' || local === 'postmaster') return true;
  const type = header(mail, 'content-type');
  return type.startsWith('multipart/report') && type.includes('delivery-status');
}

export function isAutoReply(mail: ParsedMail): boolean {
  const submitted = header(mail, 'auto-submitted');
  if (submitted && submitted !== 'no') return true;
  if (header(mail, 'x-autoreply') || header(mail, 'x-autorespond') || header(mail, 'x-autoreply-from')) return true;
  const precedence = header(mail, 'precedence');
  if (precedence === 'auto_reply' || precedence === 'bulk' || precedence === 'junk') return true;
  return header(mail, 'content-type').startsWith('multipart/report');
}

/** The addresses a delivery report says could not be reached (its Final-Recipient fields). */
export function bouncedRecipients(source: string): string[] {
  const found = [...source.matchAll(/^Final-Recipient:\s*rfc822;\s*<?([^\s<>]+@[^\s<>]+?)>?\s*$/gim)].map((m) => m[1].toLowerCase());
  return [...new Set(found)];
}

/** The Message-IDs a message answers: In-Reply-To first, then References newest first. */
export function threadIds(mail: ParsedMail): string[] {
  const refs = typeof mail.references === 'string' ? [mail.references] : (mail.references ?? []);
  const ids = [mail.inReplyTo, ...[...refs].reverse()].flatMap((v) => (v ? (v.match(/<[^<>\s]+>/g) ?? []) : []));
  return [...new Set(ids)];
}

export function classify(mail: ParsedMail, threaded: boolean): InboundKind {
  if (isBounce(mail)) return 'bounce';
  if (isAutoReply(mail)) return 'auto_reply';
  return threaded ? 'reply' : 'message';
}

export { fromAddress };
