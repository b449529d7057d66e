import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { LeadPropertySchema, propertyParamsSchema, propertySiteQuerySchema, updatePropertyBodySchema } from '@/lib/leads/property-schema';
import { deleteProperty, updateProperty } from '@/lib/leads/service';

const route = routeGroup({ tags: ['Leads'], auth: policies.keyOrMember, permission: 'settings.manage', params: propertyParamsSchema });

// PATCH /api/leads/properties/{property_id} — rename a custom property, change its options or order
export const PATCH = route({
  summary: 'Update a custom lead property',
  description: 'Label, options (choice) and position may change; removing an option that leads still hold is 409 (change their value first).',
  body: updatePropertyBodySchema,
  response: LeadPropertySchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params, body }) => updateProperty(siteId, params.property_id, body),
});

// DELETE /api/leads/properties/{property_id} — delete a custom property and its value on every lead
export const DELETE = route({
  summary: 'Delete a custom lead property',
  description: "The definition goes, and with it the property's value on every lead of the site (one transaction).",
  query: propertySiteQuerySchema,
  response: z.object({ property_id: uuidSchema, cleared_leads: z.number().int().describe('Leads that held a value') }),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => deleteProperty(siteId, params.property_id),
});
