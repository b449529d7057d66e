/**
 * Where a visit came from, decided once when the session starts and kept for its whole life, so
 * every page view and conversion of the visit is attributed to the same source.
 *
 * Values the caller sends win (an empty one counts as not sent); missing ones are read from the landing URL's query: `utm_source`,
 * `utm_medium`, `utm_campaign`, `utm_term`, `utm_content`, and `ref` (a common convention, e.g.
 * `?ref=producthunt`) as the referrer when none was sent. The browser snippet sends
 * `document.referrer` as `referrer`.
 */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type Attribution = Partial<Record<UtmField | 'referrer', string>>;

/** Stored values are capped like the request fields. */
const MAX_UTM = 500;
const MAX_REFERRER = 4096;

/** The query of a URL, absolute or relative, decoded as browsers do (a malformed escape never fails). */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf('?');
  if (start < 0) return new URLSearchParams();
  const end = url.indexOf('#', start);
  return new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end));
}

export function landingAttribution(given: Attribution, url: string | undefined): Attribution {
  const query = url ? queryOf(url) : new URLSearchParams();
  const fromUrl = (name: string, max: number) => {
    const value = query.get(name)?.trim();
    return value ? value.slice(0, max) : undefined;
  };
  const out: Attribution = {};
  for (const field of UTM_FIELDS) {
    const value = given[field] || fromUrl(field, MAX_UTM);
    if (value) out[field] = value;
  }
  const referrer = given.referrer || fromUrl('ref', MAX_REFERRER);
  if (referrer) out.referrer = referrer;
  return out;
}
