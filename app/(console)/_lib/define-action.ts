import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { FormState, StateAction } from '@/components/form-state';
import { ApiError } from '@/lib/core/errors';
import { uuidSchema } from '@/lib/core/schemas';
import { can, type Permission, type SiteRole } from '@/lib/members/permissions';
import type { SiteDetail } from '@/lib/sites/schema';
import type { User } from '@/lib/users/schema';
import { apiErrorToForm, fieldErrors, FormErrors, safeParseForm } from './forms';
import { requireSiteAccess, requireUser } from './session';

/**
 * The submitted text fields by name, what fills the form again: a repeated name (checkboxes) as
 * its values joined by commas; never a password or a field named in `secret`.
 */
function formValues(form: FormData, secret: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string' || name === 'password' || secret.includes(name)) continue;
    values[name] = name in values ? `${values[name]},${value}` : value;
  }
  return values;
}

/**
 * A refusal of the domain as form errors: errors already placed by the action as they are, its
 * issues (`body.url`, `query.from`) next to their fields, anything else next to `field` or for the
 * whole form. Anything that is not a refusal is a bug and goes on to the error boundary.
 */
function refusalToForm(error: unknown, field?: string | ((error: ApiError) => string)): Record<string, string> {
  if (error instanceof FormErrors) return error.errors;
  const issues = error instanceof ApiError ? error.details?.issues : undefined;
  if (!Array.isArray(issues) || issues.length === 0) {
    return apiErrorToForm(error, typeof field === 'function' && error instanceof ApiError ? field(error) : (field as string | undefined));
  }
  const errors: Record<string, string> = {};
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    const name =
      String(issue.path ?? '')
        .split('.')
        .filter((p) => p !== 'body' && p !== 'query')[0] || 'form';
    errors[name] ??= String(issue.message);
  }
  return errors;
}

const nonEmpty = (form: FormData) => {
  const input: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string' && value.trim() !== '') input[name] = value;
  return input;
};

/**
 * Who may run an action: a member of the site it is bound to whose role allows the action's
 * `permission` (the default), any signed-in user, or anyone (sign-in).
 */
type Access = 'site' | 'user' | 'anyone';
type Context<A extends Access, I> = { input: I } & (A extends 'site'
  ? { user: User; site: SiteDetail; role: SiteRole }
  : A extends 'user'
    ? { user: User }
    : object);

/**
 * What to refresh after a success: a page below the action's base (the site's page for a site's
 * action, '' being its overview; `/console` otherwise), or a whole layout below it. A path that
 * starts with `/console` is taken as it is.
 */
type Revalidation = string | { layout: string };

interface Definition<A extends Access, S extends z.ZodType, R> {
  access?: A;
  /** A site's action: what the member's role must allow (the table in lib/members/permissions.ts, as the API's routes). */
  permission?: Permission;
  schema: S;
  /** The schema's input from the form (and the site's id); by default the form's non-empty text fields by name. */
  input?(form: FormData, siteId: A extends 'site' ? string : undefined): unknown;
  run(ctx: Context<A, z.output<S>>): Promise<R>;
  revalidate?: (input: z.output<S>, result: R) => Revalidation[];
  /** Where to go after a success (the form's page goes away). */
  redirect?: (result: R, input: z.output<S>) => string;
  /** The field a refusal of the domain is shown next to (default: the form as a whole), or how to choose it. */
  errorField?: string | ((error: ApiError) => string);
  /** Fields never sent back to the form, not even after an error (a secret's value). */
  secret?: readonly string[];
  /** What the form shows after a success (default: it starts empty again). */
  refill?: (values: Record<string, string>, result: R) => Record<string, string>;
  /**
   * The success's result is shown on the form and nowhere else (a secret shown once, a check's
   * outcome): a post without JavaScript gets the page with it instead of a redirect that would lose it.
   */
  shownOnce?: boolean;
}

export type SiteAction<R> = ((siteId: string, prev: FormState<R>, form: FormData) => Promise<FormState<R>>) & { permission: Permission };

/**
 * A console server action, the console's copy of the route pipeline's steps: the signed-in member
 * and their site (a site they are not a member of is not found), their role checked against the
 * action's `permission` (the same table as the API's), the form parsed by the schema after the API's
 * text rule (errors go back next to their fields, with what was typed), the domain call (its
 * ApiError or FormErrors go back into the form), then the pages that show the change are
 * revalidated. A site's action is used with `useActionState(forSite(action, siteId), {})` (for-site.ts); an
 * account's (`access: 'user'` or `'anyone'`) with `useActionState(action, {})`.
 *
 *   export const updateLeadAction = defineAction({
 *     schema: leadFormSchema,
 *     run: ({ site, input }) => updateLead(site.id, input),
 *     revalidate: (input) => [`/leads/${input.lead_id}`],
 *   });
 */
export function defineAction<S extends z.ZodType, R = undefined>(
  def: Definition<'site', S, R> & { access?: 'site'; permission: Permission },
): SiteAction<R>;
export function defineAction<S extends z.ZodType, R = undefined>(def: Definition<'user', S, R> & { access: 'user' }): StateAction<R>;
export function defineAction<S extends z.ZodType, R = undefined>(def: Definition<'anyone', S, R> & { access: 'anyone' }): StateAction<R>;
export function defineAction<S extends z.ZodType, R>(def: Definition<any, S, R>): SiteAction<R> | StateAction<R> {
  const perform = async (owner: { user?: User; site?: SiteDetail }, form: FormData): Promise<FormState<R>> => {
    const values = formValues(form, def.secret ?? []);
    const raw = def.input ? def.input(form, owner.site?.id as never) : nonEmpty(form);
    const parsed = safeParseForm(def.schema, raw);
    if (!parsed.success) return { errors: fieldErrors(parsed.error as z.ZodError), values };
    let result: R;
    try {
      result = await def.run({ ...owner, input: parsed.data } as never);
    } catch (error) {
      return { errors: refusalToForm(error, def.errorField), values };
    }
    const base = owner.site ? `/console/sites/${owner.site.id}` : '/console';
    for (const target of def.revalidate?.(parsed.data, result) ?? []) {
      const path = typeof target === 'string' ? target : target.layout;
      const full = path.startsWith('/console') ? path : `${base}${path}`;
      if (typeof target === 'string') revalidatePath(full);
      else revalidatePath(full, 'layout');
    }
    if (def.redirect) redirect(def.redirect(result, parsed.data));
    if (!def.shownOnce) await redirectWithoutScript(base);
    return def.refill ? { result, values: def.refill(values, result) } : { result };
  };
  if (def.access === 'anyone') return async (_prev: FormState<R>, form: FormData) => perform({}, form);
  if (def.access === 'user') return async (_prev: FormState<R>, form: FormData) => perform({ user: await requireUser() }, form);
  const permission = def.permission!;
  const action = async (siteId: string, _prev: FormState<R>, form: FormData) => {
    const access = await requireSiteAccess(siteId);
    const refused = refusedFor(access.role, permission);
    if (refused) return { errors: refused, values: formValues(form, def.secret ?? []) };
    return perform(access, form);
  };
  return Object.assign(action, { permission });
}

type IdRun = (owner: { site: SiteDetail; user: User }, id: string) => Promise<unknown>;

/**
 * A site's action on one object named by its id, as a confirm button posts it (delete, revoke,
 * cancel): the id checked as a UUID, the domain call, the pages that show the object refreshed.
 */
export function defineIdAction(def: {
  permission: Permission;
  /** The form field that carries the id. */
  id: string;
  run: IdRun;
  revalidate: Revalidation[];
}): SiteAction<void> {
  return defineAction({
    permission: def.permission,
    schema: z.object({ [def.id]: uuidSchema }),
    run: async ({ site, user, input }) => {
      await def.run({ site, user }, (input as Record<string, string>)[def.id]);
    },
    revalidate: () => def.revalidate,
  });
}

/**
 * The actions of one console page that need the same permission and refresh the same pages, named
 * once as `routeGroup` names a group of routes: `group.action(def)` is defineAction and
 * `group.idAction(id, run)` defineIdAction with them; an action may still name its own.
 *
 *   const origins = actionGroup({ permission: 'settings.manage', revalidate: ['/origins'] });
 *   export const removeOriginAction = origins.idAction('origin_id', ({ site }, id) => removeOrigin(site.id, id));
 */
export function actionGroup(shared: { permission: Permission; revalidate: Revalidation[] }) {
  return {
    action: <S extends z.ZodType, R = undefined>(def: Omit<Definition<'site', S, R>, 'permission'> & { permission?: Permission }) =>
      defineAction<S, R>({ permission: shared.permission, revalidate: () => shared.revalidate, ...def }),
    idAction: (id: string, run: IdRun) => defineIdAction({ ...shared, id, run }),
  };
}

/**
 * After a success, a form posted without JavaScript (a browser's own form post: no `Next-Action`
 * header) is answered 303 to the page it was posted from, so a reload does not post it again and
 * the page shows the change; a script's post gets its state back as usual. The page is the
 * Referer when it is a console page of this origin, else `fallback`.
 */
async function redirectWithoutScript(fallback: string): Promise<void> {
  const h = await headers();
  if (h.get('next-action')) return;
  redirect(consolePageOf(h.get('referer'), h.get('x-forwarded-host') ?? h.get('host')) ?? fallback);
}

/** The path and query of `referer` when it is a console page on `host`, else undefined. */
function consolePageOf(referer: string | null, host: string | null): string | undefined {
  if (!referer || !host) return undefined;
  try {
    const url = new URL(referer);
    return url.host === host && /^\/console(?:\/|$)/.test(url.pathname) ? url.pathname + url.search : undefined;
  } catch {
    return undefined;
  }
}

/** The form's error when the member's role does not allow the action (a page hides such forms; this is the check). */
export function refusedFor(role: SiteRole, permission: Permission): Record<string, string> | undefined {
  return can(role, permission) ? undefined : { form: `Your role on this site (${role}) does not allow this.` };
}
