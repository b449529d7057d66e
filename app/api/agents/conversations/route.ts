import { z } from 'zod';
import { ConversationSchema, listConversationsQuerySchema } from '@/lib/agents/schema';
import { listConversations } from '@/lib/agents/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { withPageMeta } from '@/lib/http/route-group';

// GET /api/agents/conversations — the site's agent conversations, latest activity first
export const GET = defineRoute({
  summary: 'List agent conversations',
  description:
    'Conversations of the site with its agents, most recently active first; `agent` filters by role. `meta` carries total/limit/offset/has_more.',
  tags: ['Agents'],
  auth: policies.keyRead,
  query: listConversationsQuerySchema,
  response: z.array(ConversationSchema),
  handler: ({ siteId, query, res }) => withPageMeta(res, query, listConversations(siteId, query)),
});
