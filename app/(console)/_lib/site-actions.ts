'use server';

import { redirect } from 'next/navigation';
import { createSiteBodySchema } from '@/lib/sites/schema';
import { createSite } from '@/lib/sites/repo';
import { fieldErrors, optionalText, text, type FormState } from './forms';
import { requireUser } from './session';

export async function createSiteAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const values = { name: text(form, 'name'), domain: text(form, 'domain') };
  const parsed = createSiteBodySchema.safeParse({ name: values.name, domain: optionalText(form, 'domain') });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const site = await createSite(user.id, parsed.data);
  redirect(`/console/sites/${site.id}`);
}
