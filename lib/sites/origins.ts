import { anySiteHasOrigin, originsOfSite } from './repo';
import { normalizeOrigin } from './schema';

/**
 * Whether a browser Origin belongs to a site: it is one of the site's extra allowed origins
 * (exact scheme, host and port), or its scheme is http or https and its host (with port, if any)
 * is the site's domain or the domain's `www.` twin. This only identifies the site on the public
 * browser-tracking routes; it never authenticates anything else.
 */
export async function isOriginAllowed(siteId: string, origin: string): Promise<boolean> {
  const exact = exactOrigin(origin);
  if (!exact) return false;
  const site = await originsOfSite(siteId);
  if (!site) return false;
  if (site.origins.includes(exact)) return true;
  const { domain } = site;
  return domain !== null && withoutWww(new URL(exact).host) === withoutWww(domain);
}

/** Whether any site has registered this Origin (its domain, www. twin, or an extra allowed origin). */
export async function isOriginRegistered(origin: string): Promise<boolean> {
  const exact = exactOrigin(origin);
  if (!exact) return false;
  const bare = withoutWww(new URL(exact).host);
  return anySiteHasOrigin(exact, [bare, `www.${bare}`]);
}

const withoutWww = (host: string) => host.replace(/^www\./, '');

/** The Origin normalized, when it is exactly scheme://host[:port] (http or https) as browsers send it. */
function exactOrigin(origin: string): string | null {
  const normalized = normalizeOrigin(origin);
  return normalized && normalized === origin.replace(/\/$/, '').toLowerCase() ? normalized : null;
}

/**
 * The origins a site's domain implies (what `isOriginAllowed` accepts without an extra origin): http and
 * https on the domain and on its `www.` twin. None for a site without a domain.
 */
export function impliedOrigins(domain: string | null): string[] {
  if (!domain) return [];
  const bare = withoutWww(domain);
  return [bare, `www.${bare}`].flatMap((host) => [`https://${host}`, `http://${host}`]);
}
