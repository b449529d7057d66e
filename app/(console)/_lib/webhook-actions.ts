'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createEndpointBodySchema, updateEndpointBodySchema } from '@/lib/webhooks/schema';
import { createEndpoint, deleteEndpoint, pingEndpoint, updateEndpoint } from '@/lib/webhooks/service';
import { actionGroup } from './define-action';
import { optionalText, text } from './forms';

const endpointSchema = z.object({ endpoint_id: uuidSchema });

export interface CreatedEndpointResult {
  id: string;
  url: string;
  secret: string;
}

const webhooks = actionGroup({ permission: 'webhooks.manage', revalidate: ['/webhooks'] });

/** Adds an endpoint, as POST /api/webhooks does; the secret is handed back once. */
export const createEndpointAction = webhooks.action({
  shownOnce: true,
  schema: createEndpointBodySchema.omit({ site_id: true }),
  input: (form) => ({ url: text(form, 'url'), events: form.getAll('events'), description: optionalText(form, 'description') }),
  run: async ({ site, input }): Promise<CreatedEndpointResult> => {
    const created = await createEndpoint(site.id, input);
    return { id: created.id, url: created.url, secret: created.secret };
  },
  errorField: 'url',
});

/** Queues a `webhook.ping` to the endpoint, as POST /api/webhooks/{id}/ping does. */
export const pingEndpointAction = webhooks.action({
  schema: endpointSchema,
  run: async ({ site, input }) => (await pingEndpoint(site.id, input.endpoint_id)).delivery_id,
});

/** Removes an endpoint and its deliveries, as DELETE /api/webhooks does. */
export const deleteEndpointAction = webhooks.idAction('endpoint_id', ({ site }, id) => deleteEndpoint(site.id, id));

/** Changes an endpoint's events, description and whether it is active; its URL and secret stay. */
export const updateEndpointAction = webhooks.action({
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
  refill: (values) => values,
});
