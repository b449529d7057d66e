import { z } from 'zod';
import { CommandSchema } from '@/lib/commands/schema';
import { siteCommand } from '@/lib/commands/service';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /sites/{site_id}/commands/{command_id} — one command of the site
export const GET = defineRoute({
  summary: 'Get a command',
  description:
    "Status (`pending`, `running`, `completed`, `failed`, `cancelled`), and once finished the agent's reply, its tool calls (name, arguments, result or error), token usage and, for a failure, the error (code and message).",
  tags: ['Commands'],
  auth: policies.siteKey,
  params: z.object({ site_id: siteIdSchema, command_id: uuidSchema }),
  response: CommandSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => siteCommand(siteId, params.command_id),
});
