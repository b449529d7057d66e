'use server';

import { cancelSiteCommand } from '@/lib/commands/service';
import { defineIdAction } from './define-action';

/** Cancels a pending or running command, as POST /sites/{site_id}/commands/{command_id}/cancel does. */
export const cancelCommandAction = defineIdAction({
  permission: 'crm.write',
  id: 'command_id',
  run: ({ site }, id) => cancelSiteCommand(site.id, id),
  revalidate: ['/commands'],
});
