import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { config } from '@/lib/core/config';
import { isPublicAddress } from '@/lib/workflows/fetch-page';

/**
 * The outbound guard of robot browsers: every request of an instance's browser context passes
 * here first (lib/providers/robots intercepts them). http(s) to a host whose every address is
 * public, or to a host in OUTBOUND_ALLOW_HOSTS; `data:`/`blob:`/`about:` stay inside the page;
 * anything else (file:, chrome:, private, loopback and link-local addresses, credentials in the
 * URL) is refused. Answers are cached for a few seconds per host.
 */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const WEB_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);
const CACHE_MS = 5_000;
const cache = new Map<string, { ok: boolean; until: number }>();

async function hostIsPublic(host: string): Promise<boolean> {
  if (config().OUTBOUND_ALLOW_HOSTS.includes(host)) return true;
  if (isIP(host)) return isPublicAddress(host);
  const hit = cache.get(host);
  if (hit && hit.until > Date.now()) return hit.ok;
  let ok = false;
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    ok = addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
  } catch {
    ok = false;
  }
  if (cache.size > 1000) cache.clear();
  cache.set(host, { ok, until: Date.now() + CACHE_MS });
  return ok;
}

/** Why a URL is refused, or null when a robot's browser may request it. */
export async function refusalOf(raw: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return null;
  if (!WEB_SCHEMES.has(url.protocol)) return `${url.protocol} URLs are not opened`;
  if (url.username || url.password) return 'URLs with credentials are not opened';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (await hostIsPublic(host)) ? null : `${host} is not a public address (an operator may allow it in OUTBOUND_ALLOW_HOSTS)`;
}

export const allowRequest = async (url: string): Promise<boolean> => (await refusalOf(url)) === null;
