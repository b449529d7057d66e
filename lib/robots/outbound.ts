import { BoundedMap, processState } from '@/lib/core/process-state';
import { checkOutboundUrl } from '@/lib/net/guard';

/**
 * The SSRF guard applied to a robot's browser: every request of an instance's browser context
 * passes here first (lib/providers/robots intercepts them). http(s), and ws(s) checked as
 * http(s), go through `checkOutboundUrl`; `data:`/`blob:`/`about:` stay inside the page; any
 * other scheme (file:, chrome: …) is refused. Answers are cached for a few seconds per origin,
 * since a page makes many requests to the same hosts.
 */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const SOCKET_SCHEMES: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' };
const CACHE_MS = 5_000;
const cache = processState('robots.outboundChecks', () => new BoundedMap<string, { refusal: string | null; until: number }>(1000));

/** Why a URL is refused, or null when a robot's browser may request it. */
export async function refusalOf(raw: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid URL';
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return null;
  if (SOCKET_SCHEMES[url.protocol]) url = new URL(raw.replace(/^wss?:/, SOCKET_SCHEMES[url.protocol]));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not opened`;
  const key = `${url.protocol}//${url.username}:${url.password}@${url.host}`;
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.refusal;
  let refusal: string | null = null;
  try {
    await checkOutboundUrl(url);
  } catch (error) {
    refusal = error instanceof Error ? error.message : 'refused';
  }
  cache.set(key, { refusal, until: Date.now() + CACHE_MS });
  return refusal;
}

export const allowRequest = async (url: string): Promise<boolean> => (await refusalOf(url)) === null;
