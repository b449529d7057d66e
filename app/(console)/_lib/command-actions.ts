'use server';

import { z } from 'zod';
import { cancelCommand } from '@/lib/commands/repo';
import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { uuidSchema } from '@/lib/core/schemas';
import { defineAction } from './define-action';

/** Cancels a pending or running command, as POST /sites/{site_id}/commands/{command_id}/cancel does. */
export const cancelCommandAction = defineAction({
  schema: z.object({ command_id: uuidSchema }),
  run: async ({ site, input }) => {
    found(await cancelCommand(site.id, input.command_id, currentDate()), 'Command');
  },
  revalidate: () => ['/commands'],
});
