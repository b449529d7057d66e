import { z } from 'zod';
import { submitSiteCommand } from '@/lib/agents/service';
import { CommandSchema, createCommandBodySchema, CreatedCommandSchema, listCommandsQuerySchema, PROCESSING } from '@/lib/commands/schema';
import { listCommands } from '@/lib/commands/service';
import { paginationMeta, siteIdSchema } from '@/lib/core/schemas';
import { defineRoute } from '@/lib/http/define-route';

const tags = ['Commands'];
const auth = { kind: 'apiKey', headers: ['x-api-key'] } as const;
const params = z.object({ site_id: siteIdSchema });

// POST /sites/{site_id}/commands — create a command; the CMO agent carries it out
export const POST = defineRoute({
  summary: 'Create a command',
  description:
    "The command is queued and answered at once with status `processing` (accepted, not finished). The CMO agent carries it out with the site's tools, taking task, description and parameters as its instruction; the command detail then shows `pending` → `running` → `completed` (with the reply, tool calls and token usage) or `failed` (with the error), or `cancelled`. Without a configured model (LLM_BASE_URL, LLM_MODEL) the answer is 503 MODEL_NOT_CONFIGURED and nothing is stored.",
  tags,
  auth,
  params,
  body: createCommandBodySchema,
  response: CreatedCommandSchema,
  status: 201,
  errors: ['MODEL_NOT_CONFIGURED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ principal, body }) => {
    const submitted = await submitSiteCommand(principal, body);
    return { command_id: submitted.command_id, status: PROCESSING, created_at: submitted.created_at };
  },
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
