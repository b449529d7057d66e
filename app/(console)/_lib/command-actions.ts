'use server';

import { z } from 'zod';
import { cancelSiteCommand } from '@/lib/commands/service';
import { uuidSchema } from '@/lib/core/schemas';
import { defineAction } from './define-action';

/** Cancels a pending or running command, as POST /sites/{site_id}/commands/{command_id}/cancel does. */
export const cancelCommandAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ command_id: uuidSchema }),
  run: async ({ site, input }) => {
    await cancelSiteCommand(site.id, input.command_id);
  },
  revalidate: () => ['/commands'],
});
