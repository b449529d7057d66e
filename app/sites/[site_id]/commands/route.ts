import { z } from 'zod';
import { listCommands, createCommand } from '@/lib/commands/repo';
import { CommandSchema, createCommandBodySchema, CreatedCommandSchema, listCommandsQuerySchema } from '@/lib/commands/schema';
import { defineRoute } from '@/lib/http/define-route';
import { paginationMeta, siteIdSchema } from '@/lib/core/schemas';

const tags = ['Commands'];
const auth = { kind: 'apiKey', headers: ['x-api-key'] } as const;
const params = z.object({ site_id: siteIdSchema });

// POST /sites/{site_id}/commands — create a command; it stays `processing` until an agent finishes it
export const POST = defineRoute({
  summary: 'Create a command',
  description: 'The command is stored with status `processing`. It stays there until an agent records `completed` or `failed`.',
  tags,
  auth,
  params,
  body: createCommandBodySchema,
  response: CreatedCommandSchema,
  status: 201,
  handler: ({ siteId, body }) => createCommand(siteId, body),
});

// GET /sites/{site_id}/commands — newest first, paginated (`meta` carries total/limit/offset/has_more)
export const GET = defineRoute({
  summary: 'List commands',
  tags,
  auth,
  params,
  query: listCommandsQuerySchema,
  response: z.array(CommandSchema),
  handler: async ({ siteId, query, res }) => {
    const { items, total } = await listCommands(siteId, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
