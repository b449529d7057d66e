'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { isUuid } from '@/lib/core/schemas';
import { createEndpointBodySchema } from '@/lib/webhooks/schema';
import { createEndpoint, deleteEndpoint, pingEndpoint } from '@/lib/webhooks/service';
import { apiErrorToForm, fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const webhooksPath = (siteId: string) => `/console/sites/${siteId}/webhooks`;
const formSchema = createEndpointBodySchema.omit({ site_id: true });

export interface CreatedEndpointResult {
  id: string;
  url: string;
  secret: string;
}

/** Adds an endpoint, as POST /api/webhooks does; the secret is handed back once. */
export async function createEndpointAction(siteId: string, _prev: FormState<CreatedEndpointResult>, form: FormData): Promise<FormState<CreatedEndpointResult>> {
  const { site } = await requireOwnedSite(siteId);
  const events = form.getAll('events').filter((v): v is string => typeof v === 'string');
  const values = { url: text(form, 'url'), description: text(form, 'description'), events: events.join(',') };
  const parsed = safeParseForm(formSchema, { url: values.url, events, description: optionalText(form, 'description') });
  if (!parsed.success) return { errors: fieldErrors(parsed.error as z.ZodError), values };
  try {
    const created = await createEndpoint(site.id, parsed.data);
    revalidatePath(webhooksPath(site.id));
    return { result: { id: created.id, url: created.url, secret: created.secret } };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'url'), values };
  }
}

/** Queues a `webhook.ping` to the endpoint, as POST /api/webhooks/{id}/ping does. */
export async function pingEndpointAction(siteId: string, endpointId: string, _prev: FormState<string>, _form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(endpointId)) return { errors: { form: 'Webhook endpoint not found' } };
  try {
    const ping = await pingEndpoint(site.id, endpointId);
    revalidatePath(webhooksPath(site.id));
    return { result: ping.delivery_id };
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
}

/** Removes an endpoint and its deliveries, as DELETE /api/webhooks does. */
export async function deleteEndpointAction(siteId: string, endpointId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(endpointId)) return { errors: { form: 'Webhook endpoint not found' } };
  try {
    await deleteEndpoint(site.id, endpointId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(webhooksPath(site.id));
  return {};
}
