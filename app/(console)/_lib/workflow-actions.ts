'use server';

import { revalidatePath } from 'next/cache';
import { cancelWorkflowRun } from '@/lib/workflows/service';
import { apiErrorToForm, type FormState } from './forms';
import { requireOwnedSite } from './session';

/** Cancels a running run of the signed-in user's site: the same cancelWorkflowRun() as the API. */
export async function cancelRunAction(siteId: string, workflowId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  try {
    await cancelWorkflowRun(site.id, workflowId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(`/console/sites/${site.id}/workflows`);
  revalidatePath(`/console/sites/${site.id}/workflows/${encodeURIComponent(workflowId)}`);
  return {};
}
