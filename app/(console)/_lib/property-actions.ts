'use server';

import { uuidSchema } from '@/lib/core/schemas';
import { createPropertyBodySchema, updatePropertyBodySchema } from '@/lib/leads/property-schema';
import { createProperty, deleteProperty, updateProperty } from '@/lib/leads/service';
import { actionGroup } from './define-action';
import { optionalNumber, optionalText, text } from './forms';

/** Refreshed after a change: the pages that show the site's custom properties (this one, the leads list's filters, a lead's page). */
const properties = actionGroup({ permission: 'settings.manage', revalidate: ['/properties', { layout: '/leads' }] });

/** A choice's options as typed: one per line (blank lines dropped); undefined when the field is empty. */
function optionLines(form: FormData): string[] | undefined {
  const lines = text(form, 'options')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.length > 0 ? lines : undefined;
}

/** Defines a custom lead property, as POST /api/leads/properties does; a key in use is an error on the key. */
export const createPropertyAction = properties.action({
  schema: createPropertyBodySchema,
  input: (form, siteId) => {
    const type = text(form, 'type');
    return {
      site_id: siteId,
      key: text(form, 'key').trim(),
      label: text(form, 'label'),
      type,
      options: type === 'choice' ? optionLines(form) : undefined,
    };
  },
  run: async ({ site, input }) => (await createProperty(site.id, input)).label,
  errorField: (error) => (error.code === 'CONFLICT' && error.message.includes('key') ? 'key' : 'form'),
});

/** Renames a property, replaces a choice's options or moves it, as PATCH /api/leads/properties/{id} does. */
export const updatePropertyAction = properties.action({
  schema: updatePropertyBodySchema.safeExtend({ property_id: uuidSchema }),
  input: (form, siteId) => ({
    site_id: siteId,
    property_id: text(form, 'property_id'),
    label: optionalText(form, 'label'),
    options: form.has('options') ? (optionLines(form) ?? []) : undefined,
    position: optionalNumber(form, 'position'),
  }),
  run: async ({ site, input: { property_id, ...change } }) => (await updateProperty(site.id, property_id, change)).label,
  errorField: (error) => (error.code === 'CONFLICT' ? 'options' : 'form'),
});

/** Deletes a property and its value on every lead, as DELETE /api/leads/properties/{id} does. */
export const deletePropertyAction = properties.idAction('property_id', ({ site }, id) => deleteProperty(site.id, id));
