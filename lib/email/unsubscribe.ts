import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { authSecret } from '@/lib/auth/secret';
import { publicOrigin } from '@/lib/core/public-url';

/**
 * The one-click unsubscribe link of a message (RFC 8058): `List-Unsubscribe` names
 * `<origin>/api/email/unsubscribe?token=…`, and a POST there puts the recipient on the site's
 * suppression list. The token is the site and address, signed (HMAC-SHA256 under a key derived
 * from the server secret for this purpose alone): nobody can unsubscribe another address, and a
 * link stays valid for as long as the server secret does.
 */
const key = () => Buffer.from(hkdfSync('sha256', authSecret(), 'sgp.email', 'unsubscribe-link', 32));
const mac = (payload: string) => createHmac('sha256', key()).update(payload).digest().subarray(0, 18).toString('base64url');

export function unsubscribeToken(siteId: string, email: string): string {
  const payload = Buffer.from(JSON.stringify([siteId, email]), 'utf8').toString('base64url');
  return `v1.${payload}.${mac(payload)}`;
}

/** The site and address a token names, or null when it is not one of ours (altered, another secret). */
export function readUnsubscribeToken(token: string): { siteId: string; email: string } | null {
  const [version, payload, signature] = token.split('.');
  if (version !== 'v1' || !payload || !signature) return null;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [siteId, email] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    return typeof siteId === 'string' && typeof email === 'string' ? { siteId, email } : null;
  } catch {
    return null;
  }
}

/**
 * The one-click endpoint (POST, for mail clients) and the page a person opens from the message
 * body, on the product's public origin (`requestOrigin`: the request's, when one sends the mail).
 */
export function unsubscribeLinks(siteId: string, email: string, requestOrigin?: string): { oneClick: string; page: string } {
  const token = encodeURIComponent(unsubscribeToken(siteId, email));
  const origin = publicOrigin(requestOrigin);
  return { oneClick: `${origin}/api/email/unsubscribe?token=${token}`, page: `${origin}/unsubscribe?token=${token}` };
}
