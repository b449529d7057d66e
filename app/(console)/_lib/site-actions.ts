'use server';

import { redirect } from 'next/navigation';
import { createSiteBodySchema } from '@/lib/sites/schema';
import { createSite } from '@/lib/sites/repo';
import { fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { parseOriginLines } from './origin-lines';
import { requireUser } from './session';

/** Creates a site with its optional extra allowed origins (one transaction); errors next to their fields. */
export async function createSiteAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const values = { name: text(form, 'name'), domain: text(form, 'domain'), origins: text(form, 'origins') };
  const parsed = safeParseForm(createSiteBodySchema, { name: values.name, domain: optionalText(form, 'domain') });
  const origins = parseOriginLines(values.origins);
  if (!parsed.success || 'error' in origins) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if ('error' in origins) errors.origins = origins.error;
    return { errors, values };
  }
  const site = await createSite(user.id, parsed.data, origins.origins);
  redirect(`/console/sites/${site.id}`);
}
