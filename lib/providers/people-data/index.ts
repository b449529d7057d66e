import { z } from 'zod';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';
import { providerJson, providerShape } from '../http-json';

/**
 * The people-data provider behind the finder: one port, one HTTP adapter for a Forager-compatible
 * API. Without PEOPLE_DATA_BASE_URL every call answers 503 PROVIDER_NOT_CONFIGURED.
 *
 * HTTP contract of the adapter (paths relative to PEOPLE_DATA_BASE_URL, e.g.
 * `https://api-v2.forager.ai/api/<account_id>/datastorage`; every request carries
 * `X-API-KEY: <PEOPLE_DATA_API_KEY>` and `Authorization: Bearer <PEOPLE_DATA_API_KEY>` when a key is set):
 * - `GET  /categories/search?query=` → `{results: [{id, name, category}]}`
 * - `POST /person_role_search/` (search parameters + `page`) → `{search_results: [role], total_search_results}`
 * - `POST /person_role_search/totals/` (search parameters) → `{total_search_results}`
 * - `POST /organization_search/` (search parameters + `page`) → `{search_results: [organization], total_search_results}`
 * - `GET  /autocomplete/{category}/?q=&page=` → `{results: [{id, text}], pagination: {more}}`
 * - `POST /person_contacts_lookup/{work_emails|personal_emails|phone_numbers}/` `{person_id}` → `[{email|phone_number, …}]`
 * - `POST /person_detail_lookup/` `{person_id}` → a person
 * where a role is `{id, role_title, person: {id, full_name, first_name, last_name, headline, location: {name},
 * linkedin_info: {public_profile_url}, work_email?}, organization: {id, name, domain, website}}`.
 */
export const FinderCategorySchema = z.object({
  id: z.string().describe('Provider id of the category value, usable in person_role_search'),
  name: z.string().describe('Human-readable name'),
  category: z.string().describe('Which filter the id belongs to (e.g. industry, location, job_title, seniority)'),
});
export type FinderCategory = z.infer<typeof FinderCategorySchema>;

export const FinderCompanySchema = z.object({
  id: z.string().nullable().describe('Provider id of the organization'),
  name: z.string().nullable(),
  domain: z.string().nullable(),
  website: z.string().nullable(),
});

export const FinderPersonSchema = z.object({
  person_id: z.string().describe('Provider id of the person (for person_contacts_lookup)'),
  role_id: z.string().nullable().describe('Provider id of the role that matched'),
  full_name: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role_title: z.string().nullable().describe('Job title of the matching role'),
  headline: z.string().nullable(),
  location: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  email: z.string().nullable().describe('Work email when the provider includes it in search results; else null (see person_contacts_lookup)'),
  company: FinderCompanySchema.nullable(),
});
export type FinderPerson = z.infer<typeof FinderPersonSchema>;

export const FinderOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  website: z.string().nullable(),
  industry: z.string().nullable(),
  employees: z.number().nullable().describe('Employee count as the provider knows it'),
  location: z.string().nullable(),
});
export type FinderOrganization = z.infer<typeof FinderOrganizationSchema>;

export const AutocompleteItemSchema = z.object({ id: z.string(), text: z.string() });

export const CONTACT_LOOKUPS = ['work_emails', 'personal_emails', 'phone_numbers', 'details'] as const;
export type ContactLookup = (typeof CONTACT_LOOKUPS)[number];

export const ContactSchema = z.object({
  value: z.string().describe('The email address or phone number'),
  kind: z.enum(['work_email', 'personal_email', 'phone']),
  status: z.string().nullable().describe("The provider's validation status or phone type, when given"),
});
export type Contact = z.infer<typeof ContactSchema>;

export type SearchParams = Record<string, unknown>;

export interface PeopleDataProvider {
  /** Category ids (industries, locations, job titles…) whose names match free text. */
  searchCategoryIds(query: string): Promise<FinderCategory[]>;
  /** One page (1-based) of people whose roles match the provider's search parameters. */
  personRoleSearch(params: SearchParams, page: number): Promise<{ people: FinderPerson[]; total: number | null }>;
  /** How many people match, without the people. */
  personRoleTotals(params: SearchParams): Promise<number>;
  /** One page of organizations matching an ideal-client profile (the provider's organization filters). */
  organizationSearch(params: SearchParams, page: number): Promise<{ organizations: FinderOrganization[]; total: number | null }>;
  /** Values of one search filter (`category`) whose names match `q`. */
  autocomplete(category: string, q: string, page: number): Promise<{ results: z.infer<typeof AutocompleteItemSchema>[]; more: boolean }>;
  /** Contacts of one person: emails or phone numbers. */
  contacts(personId: string, lookup: Exclude<ContactLookup, 'details'>): Promise<Contact[]>;
  /** The person's details, or null when the provider does not know them. */
  personDetails(personId: string): Promise<FinderPerson | null>;
}

const PROVIDER = 'people-data provider';
const id = z.union([z.string(), z.number()]).transform(String);
const opt = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

const ProviderPerson = z.object({
  id,
  full_name: z.string().nullish(),
  first_name: opt,
  last_name: opt,
  headline: opt,
  location: z.object({ name: opt }).nullish(),
  linkedin_info: z.object({ public_profile_url: opt }).nullish(),
  work_email: opt,
});
const ProviderOrganization = z.object({
  id: id.nullish(),
  name: opt,
  domain: opt,
  website: opt,
  industry: z.union([z.string(), z.object({ name: opt })]).nullish(),
  employees: z.number().nullish(),
  location: z.object({ name: opt }).nullish(),
});
const ProviderRole = z.object({ id: id.nullish(), role_title: opt, person: ProviderPerson, organization: ProviderOrganization.nullish() });
const total = z
  .number()
  .int()
  .nonnegative()
  .nullish()
  .transform((v) => v ?? null);

function toPerson(
  p: z.infer<typeof ProviderPerson>,
  role?: { id?: string | null; role_title: string | null; organization?: z.infer<typeof ProviderOrganization> | null },
): FinderPerson {
  const fullName = p.full_name?.trim() || [p.first_name, p.last_name].filter(Boolean).join(' ') || `Person ${p.id}`;
  const org = role?.organization;
  return {
    person_id: p.id,
    role_id: role?.id ?? null,
    full_name: fullName,
    first_name: p.first_name,
    last_name: p.last_name,
    role_title: role?.role_title ?? null,
    headline: p.headline,
    location: p.location?.name ?? null,
    linkedin_url: p.linkedin_info?.public_profile_url ?? null,
    email: p.work_email,
    company: org ? { id: org.id ?? null, name: org.name, domain: org.domain, website: org.website } : null,
  };
}

function toOrganization(o: z.infer<typeof ProviderOrganization>): FinderOrganization | null {
  if (!o.id || !o.name) return null;
  const industry = typeof o.industry === 'string' ? o.industry : (o.industry?.name ?? null);
  return {
    id: o.id,
    name: o.name,
    domain: o.domain,
    website: o.website,
    industry,
    employees: o.employees ?? null,
    location: o.location?.name ?? null,
  };
}

const CONTACT_PATHS: Record<Exclude<ContactLookup, 'details'>, { path: string; kind: Contact['kind'] }> = {
  work_emails: { path: 'work_emails', kind: 'work_email' },
  personal_emails: { path: 'personal_emails', kind: 'personal_email' },
  phone_numbers: { path: 'phone_numbers', kind: 'phone' },
};
const ProviderContact = z.object({
  email: opt,
  phone_number: opt,
  validation_status: opt,
  type: opt,
});

export function httpPeopleDataProvider(baseUrl: string, apiKey: string | undefined, timeoutMs: number): PeopleDataProvider {
  const base = baseUrl.replace(/\/+$/, '');
  const headers = apiKey ? { 'x-api-key': apiKey, authorization: `Bearer ${apiKey}` } : undefined;
  const get = (path: string) => providerJson({ provider: PROVIDER, url: `${base}${path}`, headers, timeoutMs });
  const post = (path: string, body: unknown) => providerJson({ provider: PROVIDER, method: 'POST', url: `${base}${path}`, headers, body, timeoutMs });
  const shape = <T>(schema: z.ZodType<T>, value: unknown) => providerShape(PROVIDER, schema, value);

  return {
    async searchCategoryIds(query) {
      const res = shape(z.object({ results: z.array(FinderCategorySchema) }), await get(`/categories/search?${new URLSearchParams({ query })}`));
      return res.results;
    },
    async personRoleSearch(params, page) {
      const res = shape(
        z.object({ search_results: z.array(ProviderRole), total_search_results: total }),
        await post('/person_role_search/', { ...params, page }),
      );
      return { people: res.search_results.map((r) => toPerson(r.person, r)), total: res.total_search_results };
    },
    async personRoleTotals(params) {
      const res = shape(z.object({ total_search_results: z.number().int().nonnegative() }), await post('/person_role_search/totals/', params));
      return res.total_search_results;
    },
    async organizationSearch(params, page) {
      const res = shape(
        z.object({ search_results: z.array(ProviderOrganization), total_search_results: total }),
        await post('/organization_search/', { ...params, page }),
      );
      return {
        organizations: res.search_results.map(toOrganization).filter((o): o is FinderOrganization => o !== null),
        total: res.total_search_results,
      };
    },
    async autocomplete(category, q, page) {
      const qs = new URLSearchParams({ q, page: String(page) });
      const res = shape(
        z.object({ results: z.array(z.object({ id, text: z.string() })), pagination: z.object({ more: z.boolean() }).nullish() }),
        await get(`/autocomplete/${encodeURIComponent(category)}/?${qs}`),
      );
      return { results: res.results, more: res.pagination?.more ?? false };
    },
    async contacts(personId, lookup) {
      const { path, kind } = CONTACT_PATHS[lookup];
      const res = shape(z.array(ProviderContact), await post(`/person_contacts_lookup/${path}/`, { person_id: personId }));
      return res
        .map((c) => ({ value: (kind === 'phone' ? c.phone_number : c.email) ?? '', kind, status: c.validation_status ?? c.type }))
        .filter((c) => c.value !== '');
    },
    async personDetails(personId) {
      const res = shape(ProviderPerson.nullable(), await post('/person_detail_lookup/', { person_id: personId }));
      return res ? toPerson(res) : null;
    },
  };
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    peopleData: PeopleDataProvider;
  }
}

defineProvider('peopleData', () => {
  const c = config();
  const baseUrl = c.PEOPLE_DATA_BASE_URL ?? c.PEOPLE_DATA_API_URL;
  if (!baseUrl) {
    throw new ApiError(
      'PROVIDER_NOT_CONFIGURED',
      'No people-data provider is configured (set PEOPLE_DATA_BASE_URL; the older name PEOPLE_DATA_API_URL is read too)',
    );
  }
  return httpPeopleDataProvider(baseUrl, c.PEOPLE_DATA_API_KEY, c.PEOPLE_DATA_TIMEOUT_MS);
});

/** The configured provider; 503 PROVIDER_NOT_CONFIGURED when there is none. */
export const peopleDataProvider = (): PeopleDataProvider => provider('peopleData');
