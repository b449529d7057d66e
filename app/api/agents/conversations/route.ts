import { z } from 'zod';
import { ConversationSchema, listConversationsQuerySchema } from '@/lib/agents/schema';
import { listConversations } from '@/lib/agents/service';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /api/agents/conversations — the site's agent conversations, latest activity first
export const GET = defineRoute({
  summary: 'List agent conversations',
  description:
    'Conversations of the site with its agents, most recently active first; `agent` filters by role. `meta` carries total/limit/offset/has_more.',
  tags: ['Agents'],
  auth: policies.keyRead,
  query: listConversationsQuerySchema,
  response: z.array(ConversationSchema),
  handler: async ({ siteId, query, res }) => {
    const { items, total } = await listConversations(siteId, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
