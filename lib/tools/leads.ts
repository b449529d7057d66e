import { z } from 'zod';
import { cappedPaginationMeta } from '@/lib/core/schemas';
import { LeadPropertySchema, propertySiteQuerySchema } from '@/lib/leads/property-schema';
import {
  IdentifiedLeadResultSchema,
  LeadListSchema,
  LeadResultSchema,
  createLeadInputSchema,
  identifyLeadInputSchema,
  listLeadsInputSchema,
  qualifyLeadInputSchema,
  updateLeadInputSchema,
} from '@/lib/leads/schema';
import { LEAD_SEARCH_SORT_CAP, LEAD_SEARCH_WALK, createLead, listLeads, listProperties, setLeadStatus, updateLead } from '@/lib/leads/service';
import { identifyLead } from '@/lib/visitors/identify-lead';
import { defineTool } from './define-tool';

export const createLeadTool = defineTool({
  name: 'createLead',
  effect: 'append',
  path: 'leads/create',
  title: 'Create a lead',
  description:
    "Creates a lead for the site. `name` and `email` are required; the email is stored lower-case and a site has one lead per email (a duplicate answers 409 CONFLICT). `segment_id` must be one of the site's segments.",
  scope: 'write',
  creates: true,
  input: createLeadInputSchema,
  output: LeadResultSchema,
  errors: ['CONFLICT', 'NOT_FOUND'],
  run: async ({ siteId }, input) => ({ lead: await createLead(siteId, input) }),
});

export const getLeadsTool = defineTool({
  name: 'getLeads',
  effect: 'read',
  path: 'leads/get',
  title: 'List leads',
  description:
    "Lists the site's leads, newest first by default. `search` matches name, email and company case-insensitively (substring); `status` and `segment_id` filter; `limit` 1–500 (default 50), `offset`, `sort_by` (created_at, updated_at, name, email, company, status, lead_score) and `sort_order` (asc, desc). `has_more` says whether leads follow the page; `total` counts the matches up to one past the page: exact when `total_capped` is false, otherwise `offset + limit + 1` (more match)." +
    ` Sorted by name, email or company, a search that matches more than ${LEAD_SEARCH_SORT_CAP} leads and whose page is not among the first ${LEAD_SEARCH_WALK} leads in that order is refused (400 INVALID_REQUEST): narrow it, or sort by created_at, updated_at, status or lead_score.`,
  scope: 'read',
  input: listLeadsInputSchema,
  output: LeadListSchema,
  run: async ({ siteId }, input) => {
    const { items, count } = await listLeads(siteId, input);
    return { leads: items, ...cappedPaginationMeta(count, input.limit, input.offset) };
  },
});

export const updateLeadTool = defineTool({
  name: 'updateLead',
  effect: 'overwrite',
  path: 'leads/update',
  title: 'Update a lead',
  description:
    'Changes the given fields of a lead (fields as create; null clears an optional field). A lead of another site is a 404; an email that another lead of the site has is a 409 CONFLICT.',
  scope: 'write',
  input: updateLeadInputSchema,
  output: LeadResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  run: async ({ siteId }, input) => ({ lead: await updateLead(siteId, input) }),
});

export const qualifyLeadTool = defineTool({
  name: 'qualifyLead',
  effect: 'overwrite',
  path: 'leads/qualify',
  title: 'Set the status of a lead',
  description: "Sets the lead's `status` (new, contacted, qualified, converted, lost). Any status may follow any other.",
  scope: 'write',
  input: qualifyLeadInputSchema,
  output: LeadResultSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, input) => ({ lead: await setLeadStatus(siteId, input.lead_id, input.status) }),
});

export const identifyLeadTool = defineTool({
  name: 'identifyLead',
  effect: 'overwrite',
  path: 'leads/identify',
  title: 'Identify a visitor as a lead',
  description:
    "Links a visitor of the site to one of the site's leads, chosen by `lead_id` or `email`, and returns the lead; an earlier link of the visitor is replaced. Without `lead_id` and `email` it returns the lead the visitor is linked to (404 when there is none).",
  scope: 'write',
  input: identifyLeadInputSchema,
  output: IdentifiedLeadResultSchema,
  errors: ['NOT_FOUND'],
  run: ({ siteId }, input) => identifyLead(siteId, input),
});

export const getLeadPropertiesTool = defineTool({
  name: 'getLeadProperties',
  effect: 'read',
  path: 'leads/properties',
  title: "List the site's custom lead properties",
  description:
    "The site's own lead fields: `key`, `label`, `type` (text, number, date YYYY-MM-DD, choice) and a choice's `options`. A lead's values are in its `custom_properties` by key; createLead and updateLead write them (null clears one), getLeads filters on them with `properties`.",
  scope: 'read',
  input: propertySiteQuerySchema,
  output: z.object({ properties: z.array(LeadPropertySchema) }),
  run: async ({ siteId }) => ({ properties: await listProperties(siteId) }),
});
