import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { authSecret } from '@/lib/auth/secret';
import { publicOrigin } from '@/lib/core/public-url';

/**
 * Open and click tracking of a sequence's messages. The pixel and every rewritten link carry a
 * token naming the site and the message (and, for a link, its target), signed with HMAC-SHA256
 * under a key derived from the server secret for this purpose alone: an altered or forged link
 * is refused (it redirects nowhere), so the redirect can never be used to send people elsewhere.
 * Only http(s) links are rewritten, and only an http(s) target is ever redirected to.
 */
const key = () => Buffer.from(hkdfSync('sha256', authSecret(), 'sgp.sequences', 'tracking-link', 32));
const mac = (kind: string, payload: string) =>
  createHmac('sha256', key()).update(`${kind}.${payload}`).digest().subarray(0, 18).toString('base64url');
const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export interface TrackedMessage {
  siteId: string;
  messageId: string;
}

function sign(kind: 'o1' | 'c1', value: unknown[]): string {
  const payload = encode(value);
  return `${kind}.${payload}.${mac(kind, payload)}`;
}

function verify(kind: 'o1' | 'c1', token: string): string[] | null {
  const [version, payload, signature, ...rest] = token.split('.');
  if (version !== kind || !payload || !signature || rest.length) return null;
  const expected = Buffer.from(mac(kind, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  } catch {
    return null;
  }
}

/** An absolute http(s) URL, or null. */
export function httpTarget(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export const openToken = (m: TrackedMessage) => sign('o1', [m.siteId, m.messageId]);
export const clickToken = (m: TrackedMessage, target: string) => sign('c1', [m.siteId, m.messageId, target]);

/** The message an open pixel's token names, or null when the token is not one of ours. */
export function readOpenToken(token: string): TrackedMessage | null {
  const value = verify('o1', token);
  return value?.length === 2 ? { siteId: value[0], messageId: value[1] } : null;
}

/** The message and target a click token names, or null when it is not one of ours or the target is not http(s). */
export function readClickToken(token: string): (TrackedMessage & { target: string }) | null {
  const value = verify('c1', token);
  if (value?.length !== 3) return null;
  const target = httpTarget(value[2]);
  return target ? { siteId: value[0], messageId: value[1], target } : null;
}

export const openPixelUrl = (m: TrackedMessage) => `${publicOrigin()}/api/email/open?t=${openToken(m)}`;
export const clickUrl = (m: TrackedMessage, target: string) => `${publicOrigin()}/api/email/click?t=${clickToken(m, target)}`;

/** The URLs of a plain text: http(s) up to a space or a closing bracket/quote; a trailing full stop or comma is the sentence's. */
const TEXT_URL = /https?:\/\/[^\s<>"'()[\]{}]+/g;
const trailing = /[.,;:!?]+$/;

/** Plain text with each http(s) link replaced by its tracked link (a plain-text message has no pixel). */
export function trackText(text: string, m: TrackedMessage): string {
  return text.replace(TEXT_URL, (found) => {
    const tail = found.match(trailing)?.[0] ?? '';
    const url = tail ? found.slice(0, -tail.length) : found;
    const target = httpTarget(url);
    return target ? `${clickUrl(m, target)}${tail}` : found;
  });
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gi;
const unescapeAttr = (v: string) =>
  v
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
export const escapeHtml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** HTML with each http(s) link's href replaced by its tracked link and the open pixel at the end of the body. */
export function trackHtml(html: string, m: TrackedMessage): string {
  const linked = html.replace(HREF, (all, start: string, quote: string, href: string) => {
    const target = httpTarget(unescapeAttr(href.trim()));
    return target ? `${start}${quote}${escapeHtml(clickUrl(m, target))}${quote}` : all;
  });
  const pixel = `<img src="${escapeHtml(openPixelUrl(m))}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  return /<\/body>/i.test(linked) ? linked.replace(/<\/body>/i, `${pixel}</body>`) : `${linked}${pixel}`;
}

/** The readable text of an HTML body (its text alternative): links kept as "text (url)", tags dropped. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\b[^>]*?\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi, (_a, _q, href: string, text: string) => `${text} (${unescapeAttr(href)})`)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A 1×1 transparent GIF. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
