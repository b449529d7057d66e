/**
 * A visitor's name for people: "Visitor 3f9c2a · Germany · Chrome", a bot's as well: the lists mark
 * a bot with their "bot" badge beside it, which the label does not repeat.
 * The six characters are the end of the visitor's id — its random part: a time-ordered id (UUIDv7)
 * starts with its creation time, so visitors of the same minute share their first characters and
 * cannot be told apart by them. The same visitor always reads the same; the full id stays on the
 * label's link. Place and browser are those of the session at hand, when known.
 */
export function visitorLabel(v: { visitor_id: string; location?: Record<string, unknown> | null; browser?: Record<string, unknown> | null }): string {
  const place = text(v.location?.city) ?? countryName(text(v.location?.country));
  return [`Visitor ${visitorTag(v.visitor_id)}`, place, text(v.browser?.name)].filter(Boolean).join(' · ');
}

/** The six characters that tell a visitor apart: the end of its id, in lower case. */
export const visitorTag = (visitorId: string): string => visitorId.replace(/-/g, '').slice(-6).toLowerCase();

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** "DE" → "Germany"; an unknown code stays as it came. */
function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  try {
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
