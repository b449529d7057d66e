import { siteDomain } from './repo';

/**
 * Whether a browser Origin belongs to a site: its scheme is http or https and its host (with
 * port, if any) is the site's domain or the domain's `www.` twin. This only identifies the site
 * on the public browser-tracking routes; it never authenticates anything else.
 */
export async function isOriginAllowed(siteId: string, origin: string): Promise<boolean> {
  const host = hostOf(origin);
  if (!host) return false;
  const domain = await siteDomain(siteId);
  if (!domain) return false;
  const bare = (h: string) => h.replace(/^www\./, '');
  return bare(host) === bare(domain);
}

function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.origin !== origin.replace(/\/$/, '')) return null; // an Origin is scheme://host[:port] only
    return url.host.toLowerCase();
  } catch {
    return null;
  }
}
