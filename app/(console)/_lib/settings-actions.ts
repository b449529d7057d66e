'use server';

import { revalidatePath } from 'next/cache';
import { ApiError } from '@/lib/core/errors';
import { findInputIssue } from '@/lib/core/text';
import { replacementPatch } from '@/lib/settings/merge';
import { updateSettings } from '@/lib/settings/service';
import { text } from './forms';
import { formPathOf, fromFormValue, toFormValue, type FormValue } from './settings-form';
import { findGroup, groupFields } from './settings-model';
import { requireOwnedSite } from './session';

/** What the settings form gets back: errors by form path (`form` for the whole form) or the saved values. */
export interface SettingsFormState {
  errors?: Record<string, string>;
  saved?: { values: Record<string, FormValue>; at: number };
}

/**
 * Saves one group of the settings editor. The form sends its values as JSON (`values`); they
 * become settings values (./settings-form.ts) and one updateSettings call replaces the group's
 * fields whole — what the form shows is what is stored — and leaves every other field alone.
 * The same schema validates it as the API's; an invalid value writes nothing.
 */
export async function saveSettingsAction(
  siteId: string,
  groupId: string,
  _prev: SettingsFormState,
  form: FormData,
): Promise<SettingsFormState> {
  const { site } = await requireOwnedSite(siteId);
  const group = findGroup(groupId);
  if (!group) return { errors: { form: 'Unknown settings section' } };
  let values: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text(form, 'values'));
    values = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return { errors: { form: 'The form could not be read; reload the page and try again' } };
  }

  const fields = groupFields(group);
  const paths = new Map<string, string>();
  const next = Object.fromEntries(fields.map(({ key, node }) => [key, fromFormValue(node, values[key], key, key, paths)]));
  // The API's text rule (lib/core/text.ts), reported like the schema's issues: next to the field.
  const refused = findInputIssue(next);
  if (refused) {
    const issues = [{ path: ['settings', ...refused.path].join('.'), message: refused.message }];
    return { errors: settingsErrors(new ApiError('INVALID_REQUEST', refused.message, { issues }), paths) };
  }
  const patch = (stored: Record<string, unknown>) =>
    Object.fromEntries(fields.map(({ key }) => [key, replacementPatch(stored[key], next[key])]));

  let saved: Record<string, unknown>;
  try {
    saved = await updateSettings(site.id, patch);
  } catch (error) {
    return { errors: settingsErrors(error, paths) };
  }
  revalidatePath(`/console/sites/${site.id}/settings`, 'layout');
  return {
    saved: { values: Object.fromEntries(fields.map(({ key, node }) => [key, toFormValue(node, saved[key])])), at: Date.now() },
  };
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
