import { createHash } from 'node:crypto';
import { dailySalt, sitePrivacy } from './privacy-repo';

/**
 * How a visit is counted. Usually the visitor is the tag's random first-party id (`fingerprint`).
 * A visit is anonymous when the site is in cookieless mode (settings `tracking.cookieless`), or
 * when the browser asks not to be tracked (Global Privacy Control or Do Not Track: the body's
 * `privacy_signal`, the `Sec-GPC: 1` or `DNT: 1` header) and the site honours it
 * (`tracking.respect_gpc`, default on). An anonymous visitor is a daily id: a hash of a random
 * salt of the day (UTC), the site, the IP address and the User-Agent — none of which is stored —
 * so a visit still spans its pages, and nobody can recognise the visitor after the day.
 */
export interface VisitPrivacy {
  anonymous: boolean;
  /** The visitor's key: the client's fingerprint, or the daily id of an anonymous visit. */
  fingerprint: string | undefined;
}

const DAILY_ID_PREFIX = 'daily:';

function asksNotToBeTracked(req: Request, signal: boolean | undefined): boolean {
  return signal === true || req.headers.get('sec-gpc') === '1' || req.headers.get('dnt') === '1';
}

export async function visitPrivacy(
  siteId: string,
  input: { fingerprint?: string; privacy_signal?: boolean },
  req: Request,
  clientAddress: string,
  at: number,
): Promise<VisitPrivacy> {
  const day = new Date(at).toISOString().slice(0, 10);
  const site = await sitePrivacy(siteId, day);
  const anonymous = !!site && (site.cookieless || (site.respectGpc && asksNotToBeTracked(req, input.privacy_signal)));
  if (!anonymous) return { anonymous, fingerprint: input.fingerprint };
  const salt = site.salt ?? (await dailySalt(day));
  const hash = createHash('sha256')
    .update(`${salt}\n${siteId}\n${clientAddress}\n${req.headers.get('user-agent') ?? ''}`)
    .digest('base64url');
  return { anonymous, fingerprint: DAILY_ID_PREFIX + hash };
}

/** What an anonymous visit keeps of a location: the country, never the region or city. */
export function anonymousLocation(location: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return location?.country === undefined ? undefined : { country: location.country };
}
