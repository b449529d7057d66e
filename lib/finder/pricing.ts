/**
 * What each finder call costs, in credits. A call is charged only when the provider answered it:
 * the price is reserved before the call (402 INSUFFICIENT_CREDITS when the balance or the month's
 * cap cannot cover it, before anything goes out) and refunded when the call fails.
 * The table in docs/PRODUCT.md ("Credits and spend caps") lists the same prices.
 */
export const FINDER_PRICES = {
  /** POST /api/finder/person_role_search — one page of people. */
  person_role_search: 1,
  /** POST /api/finder/person_role_search/totals, analyzeICPTotalCount. */
  person_role_totals: 1,
  /** POST /api/finder/icp — one page of organizations. */
  icp_search: 1,
  /** POST /api/finder/person_contacts_lookup, per lookup type. */
  work_emails: 2,
  personal_emails: 2,
  phone_numbers: 5,
  details: 1,
  /** searchRegionVenues. */
  venue_search: 1,
  /** Autocomplete and category ids are free. */
  autocomplete: 0,
} as const;

export type FinderCallType = keyof typeof FINDER_PRICES;
