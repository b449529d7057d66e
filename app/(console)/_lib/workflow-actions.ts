'use server';

import { z } from 'zod';
import { cancelWorkflowRun } from '@/lib/workflows/service';
import { defineAction } from './define-action';

/** Cancels a running run of the signed-in user's site: the same cancelWorkflowRun() as the API. */
export const cancelRunAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ workflow_id: z.string().min(1) }),
  run: async ({ site, input }) => {
    await cancelWorkflowRun(site.id, input.workflow_id);
  },
  revalidate: (input) => ['/workflows', `/workflows/${encodeURIComponent(input.workflow_id)}`],
});
