import { revalidatePath } from 'next/cache';
import type { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import type { SiteDetail } from '@/lib/sites/schema';
import type { User } from '@/lib/users/schema';
import { apiErrorToForm, fieldErrors, safeParseForm, type FormState } from './forms';
import { requireOwnedSite } from './session';

/** The submitted text fields by name (empty ones left out, so schema defaults apply); what fills the form again. */
function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string' && name !== 'password') values[name] = value;
  }
  return values;
}

/**
 * A refusal of the domain as form errors: its issues (`body.url`, `query.from`) next to their
 * fields, anything else next to `field` or for the whole form.
 */
function refusalToForm(error: unknown, field?: string): Record<string, string> {
  const issues = error instanceof ApiError ? error.details?.issues : undefined;
  if (!Array.isArray(issues) || issues.length === 0) return apiErrorToForm(error, field);
  const errors: Record<string, string> = {};
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    const name = String(issue.path ?? '').split('.').filter((p) => p !== 'body' && p !== 'query')[0] || 'form';
    errors[name] ??= String(issue.message);
  }
  return errors;
}

const nonEmpty = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));

export interface ActionContext<I> {
  user: User;
  site: SiteDetail;
  input: I;
}

/**
 * A console server action, the console's copy of the route pipeline's steps: the signed-in owner
 * and their site (another user's site is not found), the form parsed by the schema after the API's
 * text rule (errors go back next to their fields, with what was typed), the domain call (its
 * ApiError goes back into the form), then the pages below the site that show the change are
 * revalidated. Used with `useActionState(action.bind(null, siteId), {})`.
 *
 *   export const updateLeadAction = defineAction({
 *     schema: leadFormSchema,
 *     run: ({ site, input }) => updateLead(site.id, input),
 *     revalidate: (input) => [`/leads/${input.lead_id}`],
 *   });
 */
export function defineAction<S extends z.ZodType, R = undefined>(def: {
  schema: S;
  /** The schema's input from the form (and the site's id); by default the form's non-empty text fields by name. */
  input?: (form: FormData, siteId: string) => unknown;
  run: (ctx: ActionContext<z.output<S>>) => Promise<R>;
  /** Paths below the site's page to refresh after a success ('' is the site's overview). */
  revalidate?: (input: z.output<S>, result: R) => string[];
  /** The field a refusal of the domain is shown next to (default: the form as a whole). */
  errorField?: string;
}) {
  return async function action(siteId: string, _prev: FormState<R>, form: FormData): Promise<FormState<R>> {
    const { user, site } = await requireOwnedSite(siteId);
    const values = formValues(form);
    const parsed = safeParseForm(def.schema, def.input ? def.input(form, site.id) : nonEmpty(values));
    if (!parsed.success) return { errors: fieldErrors(parsed.error as z.ZodError), values };
    let result: R;
    try {
      result = await def.run({ user, site, input: parsed.data });
    } catch (error) {
      return { errors: refusalToForm(error, def.errorField), values };
    }
    for (const path of def.revalidate?.(parsed.data, result) ?? []) revalidatePath(`/console/sites/${site.id}${path}`);
    return { result };
  };
}
