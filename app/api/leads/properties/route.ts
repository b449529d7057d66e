import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { createPropertyBodySchema, LeadPropertySchema, MAX_PROPERTIES, propertySiteQuerySchema } from '@/lib/leads/property-schema';
import { createProperty, listProperties } from '@/lib/leads/service';

const route = routeGroup({ tags: ['Leads'], auth: policies.keyOrMember });

// GET /api/leads/properties — the site's custom lead properties, in order
export const GET = route({
  summary: 'List custom lead properties',
  query: propertySiteQuerySchema,
  response: z.array(LeadPropertySchema),
  handler: ({ siteId }) => listProperties(siteId),
});

// POST /api/leads/properties — define a custom lead property (text, number, date or choice)
export const POST = route({
  summary: 'Create a custom lead property',
  description:
    `A field of the site's own for its leads. Its \`key\` names the value in a lead's \`custom_properties\`, in CSV import mappings and export columns, ` +
    `and in \`property.<key>\` filters; the key and type are fixed once created. A key already defined is 409; a site has at most ${MAX_PROPERTIES}. ` +
    'Members whose role manages settings (owner, admin) or a write key. docs/PRODUCT.md "Custom lead properties".',
  permission: 'settings.manage',
  body: createPropertyBodySchema,
  response: LeadPropertySchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => createProperty(siteId, body),
});
