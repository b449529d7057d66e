'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createEndpointBodySchema, updateEndpointBodySchema } from '@/lib/webhooks/schema';
import { createEndpoint, deleteEndpoint, pingEndpoint, updateEndpoint } from '@/lib/webhooks/service';
import { defineAction } from './define-action';
import { optionalText, text } from './forms';

const endpointSchema = z.object({ endpoint_id: uuidSchema });

export interface CreatedEndpointResult {
  id: string;
  url: string;
  secret: string;
}

/** Adds an endpoint, as POST /api/webhooks does; the secret is handed back once. */
export const createEndpointAction = defineAction({
  shownOnce: true,
  permission: 'webhooks.manage',
  schema: createEndpointBodySchema.omit({ site_id: true }),
  input: (form) => ({ url: text(form, 'url'), events: form.getAll('events'), description: optionalText(form, 'description') }),
  run: async ({ site, input }): Promise<CreatedEndpointResult> => {
    const created = await createEndpoint(site.id, input);
    return { id: created.id, url: created.url, secret: created.secret };
  },
  errorField: 'url',
  revalidate: () => ['/webhooks'],
});

/** Queues a `webhook.ping` to the endpoint, as POST /api/webhooks/{id}/ping does. */
export const pingEndpointAction = defineAction({
  permission: 'webhooks.manage',
  schema: endpointSchema,
  run: async ({ site, input }) => (await pingEndpoint(site.id, input.endpoint_id)).delivery_id,
  revalidate: () => ['/webhooks'],
});

/** Removes an endpoint and its deliveries, as DELETE /api/webhooks does. */
export const deleteEndpointAction = defineAction({
  permission: 'webhooks.manage',
  schema: endpointSchema,
  run: async ({ site, input }) => {
    await deleteEndpoint(site.id, input.endpoint_id);
  },
  revalidate: () => ['/webhooks'],
});

/** Changes an endpoint's events, description and whether it is active; its URL and secret stay. */
export const updateEndpointAction = defineAction({
  permission: 'webhooks.manage',
  schema: updateEndpointBodySchema.extend({ endpoint_id: uuidSchema }),
  input: (form) => ({
    endpoint_id: text(form, 'endpoint_id'),
    events: form.getAll('events'),
    description: optionalText(form, 'description') ?? null,
    active: form.get('active') === 'on',
  }),
  run: async ({ site, input: { endpoint_id: id, ...change } }) => {
    await updateEndpoint(site.id, id, change);
    return 'Saved.';
  },
  revalidate: () => ['/webhooks'],
  refill: (values) => values,
});
