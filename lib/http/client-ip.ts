import { isIP } from 'node:net';
import { config } from '@/lib/core/config';

/**
 * The client address used for per-IP limits.
 *
 * `next start` does not hand route handlers the socket; it copies the socket address into
 * X-Forwarded-For only when the request has none. So the chain read here is whatever arrived,
 * and TRUST_PROXY says how many entries at its right end were written by our own proxies:
 *
 * - TRUST_PROXY=0 (default, the app is reached directly): the last entry, which is the socket
 *   address unless the client sent its own X-Forwarded-For. A client that does can pick its
 *   per-IP bucket; the per-key and per-account limits still hold. Put a proxy in front and set
 *   TRUST_PROXY for per-IP limits that cannot be sidestepped.
 * - TRUST_PROXY=N (N proxies that each append the address they received from, e.g. one load
 *   balancer: 1; Vercel, which rewrites the header to the client address: 1): the Nth entry from
 *   the right. A chain shorter than N did not come through the proxies; its first entry is used.
 *
 * Returns `unknown` when there is no usable address (in-process calls, malformed headers).
 */
export function clientIpFrom(forwardedFor: string | null | undefined, trustedHops = config().TRUST_PROXY): string {
  const chain = (forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!chain.length) return 'unknown';
  const entry = chain[Math.max(0, chain.length - Math.max(1, trustedHops))];
  return normalize(entry);
}

export function clientIp(req: Request): string {
  return clientIpFrom(req.headers.get('x-forwarded-for'));
}

/** Who is calling, as the account audit log and the session list keep it: the address and the browser's user agent. */
export function clientOf(req: Request): { ip: string; userAgent: string | null } {
  return { ip: clientIp(req), userAgent: req.headers.get('user-agent') };
}

function normalize(entry: string): string {
  let address = entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address); // [v6]:port
  if (bracketed) address = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':')); // v4:port
  address = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return isIP(address) ? address : 'unknown';
}
