import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { peopleDataProvider, type ContactLookup, type FinderPerson } from '@/lib/providers/people-data';
import { venuesProvider, type VenueSearch } from '@/lib/providers/venues';
import { chargeCredits, refundCharge } from './credits-repo';
import { FINDER_PRICES, type FinderCallType } from './pricing';
import type { SearchQuery } from './schema';

/**
 * The finder's calls, for its routes, its tools and the mining workflow alike. Each paid call
 * resolves its provider first (503 when none is configured: nothing is charged), reserves its
 * price (402 INSUFFICIENT_CREDITS before anything goes out), calls, and refunds the price when
 * the call fails — so a site pays only for answers it got.
 */
export interface Charged<T> {
  value: T;
  credits: { charged: number; balance: number | null };
}

export async function charged<T>(
  siteId: string,
  callType: FinderCallType,
  call: () => Promise<T>,
  o: { workflowId?: string | null } = {},
): Promise<Charged<T>> {
  const price = FINDER_PRICES[callType];
  if (price === 0) return { value: await call(), credits: { charged: 0, balance: null } };
  const { chargeId, balance } = await chargeCredits(siteId, callType, price, o);
  try {
    return { value: await call(), credits: { charged: price, balance } };
  } catch (error) {
    const reason = error instanceof ApiError ? error.code : 'SYSTEM_ERROR';
    try {
      await refundCharge(siteId, chargeId, `Refund: the call failed (${reason})`);
    } catch (refundError) {
      log.error('finder refund failed', { site_id: siteId, charge_id: chargeId, ...errorFields(refundError) });
    }
    throw error;
  }
}

export async function searchPeople(siteId: string, params: SearchQuery, page: number, o: { workflowId?: string | null } = {}) {
  const provider = peopleDataProvider();
  const { value, credits } = await charged(siteId, 'person_role_search', () => provider.personRoleSearch(params, page), o);
  return { people: value.people, page, total: value.total, credits };
}

export async function countPeople(siteId: string, params: SearchQuery) {
  const provider = peopleDataProvider();
  const { value, credits } = await charged(siteId, 'person_role_totals', () => provider.personRoleTotals(params));
  return { total: value, credits };
}

export async function searchOrganizations(siteId: string, params: SearchQuery, page: number) {
  const provider = peopleDataProvider();
  const { value, credits } = await charged(siteId, 'icp_search', () => provider.organizationSearch(params, page));
  return { organizations: value.organizations, page, total: value.total, credits };
}

export async function autocomplete(siteId: string, category: string, q: string, page: number) {
  const provider = peopleDataProvider();
  const { value } = await charged(siteId, 'autocomplete', () => provider.autocomplete(category, q, page));
  return { category, results: value.results, page, has_more: value.more };
}

export async function lookupContacts(siteId: string, personId: string, type: ContactLookup, o: { workflowId?: string | null } = {}) {
  const provider = peopleDataProvider();
  if (type === 'details') {
    const { value, credits } = await charged(siteId, 'details', () => provider.personDetails(personId), o);
    return { person_id: personId, type, contacts: [], details: value, credits };
  }
  const { value, credits } = await charged(siteId, type, () => provider.contacts(personId, type), o);
  return { person_id: personId, type, contacts: value, details: null as FinderPerson | null, credits };
}

export async function searchVenues(siteId: string, input: VenueSearch) {
  const provider = venuesProvider();
  const { value, credits } = await charged(siteId, 'venue_search', () => provider.search(input));
  return { region: input.region, query: input.query, venues: value, credits };
}
