'use server';

import { z } from 'zod';
import { formPathOf, fromFormValue, toFormValue, type FormValue } from '@/components/schema-form/nodes';
import { canonicalTimeZone } from '@/lib/analytics/calendar';
import { ApiError } from '@/lib/core/errors';
import { findInputIssue } from '@/lib/core/text';
import { replacementPatch } from '@/lib/settings/merge';
import { updateSettings } from '@/lib/settings/service';
import { defineAction } from './define-action';
import { FormErrors, text } from './forms';
import { findGroup, groupFields } from './settings-model';

/** What a save hands back to the settings form: the stored values of the group, and when. */
export interface SavedSettings {
  values: Record<string, FormValue>;
  at: number;
}

/** The form's values as JSON: a string passes the text rule as such, the values are checked once they are settings. */
const settingsFormSchema = z.object({ group: z.string(), values: z.string() });

/**
 * Saves one group of the settings editor. The form sends its values as JSON (`values`); they
 * become settings values (components/schema-form/nodes.ts) and one updateSettings call replaces the group's
 * fields whole — what the form shows is what is stored — and leaves every other field alone.
 * The same schema validates it as the API's; an invalid value writes nothing, and every error
 * goes back next to its field by the field's form path.
 */
export const saveSettingsAction = defineAction({
  permission: 'settings.manage',
  schema: settingsFormSchema,
  // JSON leaves noncharacters as they are: escaped, they reach the text rule below with their field's path.
  input: (form) => ({
    group: text(form, 'group'),
    values: text(form, 'values').replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`),
  }),
  run: async ({ site, input }): Promise<SavedSettings> => {
    const group = findGroup(input.group);
    if (!group) throw new FormErrors({ form: 'Unknown settings section' });
    const values = readValues(input.values);
    const fields = groupFields(group);
    const paths = new Map<string, string>();
    const next = Object.fromEntries(fields.map(({ key, node }) => [key, fromFormValue(node, values[key], key, key, paths)]));
    // The API's text rule (lib/core/text.ts), reported like the schema's issues: next to the field.
    const refused = findInputIssue(next);
    if (refused) {
      const issues = [{ path: ['settings', ...refused.path].join('.'), message: refused.message }];
      throw new FormErrors(settingsErrors(new ApiError('INVALID_REQUEST', refused.message, { issues }), paths));
    }
    const patch = (stored: Record<string, unknown>) => Object.fromEntries(fields.map(({ key }) => [key, replacementPatch(stored[key], next[key])]));
    let saved: Record<string, unknown>;
    try {
      saved = await updateSettings(site.id, patch);
    } catch (error) {
      throw new FormErrors(settingsErrors(error, paths));
    }
    return { values: Object.fromEntries(fields.map(({ key, node }) => [key, toFormValue(node, saved[key])])), at: Date.now() };
  },
  revalidate: () => [{ layout: '/settings' }],
});

function readValues(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    throw new FormErrors({ form: 'The form could not be read; reload the page and try again' });
  }
}

/** updateSettings' issues (paths such as `settings.products.0.price`) by the form path of their field. */
function settingsErrors(error: unknown, paths: Map<string, string>): Record<string, string> {
  if (!(error instanceof ApiError)) throw error;
  const issues = (error.details?.issues ?? []) as { path: string; message: string }[];
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.replace(/^settings\.?/, '');
    const message = /received undefined/.test(issue.message) ? 'Required' : issue.message;
    errors[path === '' ? 'form' : formPathOf(path, paths)] ??= message;
  }
  const count = Object.keys(errors).filter((k) => k !== 'form').length;
  errors.form ??= issues.length === 0 ? error.message : `Nothing was saved: ${count === 1 ? 'a field needs' : `${count} fields need`} attention.`;
  return errors;
}

/** The site's time zone from its form: an IANA name, stored canonical ("europe/berlin" → "Europe/Berlin"). */
const timeZoneFormSchema = z.object({
  timezone: z.string({ error: 'Choose a time zone' }).transform((name, ctx) => {
    const zone = canonicalTimeZone(name.trim());
    if (!zone) ctx.addIssue({ code: 'custom', message: `“${name}” is not a time zone: choose one from the list, e.g. Europe/Berlin` });
    return zone ?? z.NEVER;
  }),
});

/**
 * Sets the site's time zone: settings `business_hours.timezone`, the zone the console shows every
 * date and counts analytics days in (and the API's `timezone=site`); the opening hours stay as they are.
 */
export const saveTimeZoneAction = defineAction({
  permission: 'settings.manage',
  schema: timeZoneFormSchema,
  run: async ({ site, input }) => {
    await updateSettings(site.id, { business_hours: { timezone: input.timezone } });
    return input.timezone;
  },
  // Every page of the site shows dates in it.
  revalidate: () => [{ layout: '' }],
});
