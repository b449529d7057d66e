import { anySiteHasOrigin, originsOfSite } from './repo';
import { normalizeOrigin } from './schema';

/**
 * Whether a browser Origin belongs to a site: it is one of the site's extra allowed origins
 * (exact scheme, host and port), or its scheme is http or https and its host (with port, if any)
 * is the site's domain or the domain's `www.` twin. This only identifies the site on the public
 * browser-tracking routes; it never authenticates anything else.
 */
export async function isOriginAllowed(siteId: string, origin: string): Promise<boolean> {
  const normalized = normalizeOrigin(origin);
  if (!normalized || normalized !== origin.replace(/\/$/, '').toLowerCase()) return false;
  const site = await originsOfSite(siteId);
  if (!site) return false;
  if (site.origins.includes(normalized)) return true;
  if (!site.domain) return false;
  const bare = (h: string) => h.replace(/^www\./, '');
  return bare(new URL(normalized).host) === bare(site.domain);
}

/** Whether any site has registered this Origin (its domain, www. twin, or an extra allowed origin). */
export async function isOriginRegistered(origin: string): Promise<boolean> {
  const normalized = normalizeOrigin(origin);
  if (!normalized || normalized !== origin.replace(/\/$/, '').toLowerCase()) return false;
  const bare = new URL(normalized).host.replace(/^www\./, '');
  return anySiteHasOrigin(normalized, [bare, `www.${bare}`]);
}

/**
 * The origins a site's domain implies (what `isOriginAllowed` accepts without an extra origin): http and
 * https on the domain and on its `www.` twin. None for a site without a domain.
 */
export function impliedOrigins(domain: string | null): string[] {
  if (!domain) return [];
  const bare = domain.replace(/^www\./, '');
  return [bare, `www.${bare}`].flatMap((host) => [`https://${host}`, `http://${host}`]);
}
