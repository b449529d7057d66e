import { z } from 'zod';
import { CommandSchema } from '@/lib/commands/schema';
import { cancelSiteCommand } from '@/lib/commands/service';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /sites/{site_id}/commands/{command_id}/cancel — stop a command that has not finished
export const POST = defineRoute({
  summary: 'Cancel a command',
  description:
    'A pending command becomes `cancelled` and never runs; a running one becomes `cancelled` at once and its agent stops as soon as that commits (its reply, if any, is not recorded). A finished command is returned unchanged.',
  tags: ['Commands'],
  auth: policies.siteKeyWrite,
  params: z.object({ site_id: siteIdSchema, command_id: uuidSchema }),
  response: CommandSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => cancelSiteCommand(siteId, params.command_id),
});
