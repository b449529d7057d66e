import { z } from 'zod';
import { ConversationDetailSchema, getConversationQuerySchema } from '@/lib/agents/schema';
import { siteConversation } from '@/lib/agents/service';
import { uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /api/agents/conversations/{conversation_id} — one conversation with its messages
export const GET = defineRoute({
  summary: 'Get an agent conversation',
  description:
    "The conversation and its messages, oldest first (role, content, the agent's tool calls, command, time). Another site's conversation is a 404.",
  tags: ['Agents'],
  auth: policies.keyRead,
  params: z.object({ conversation_id: uuidSchema }),
  query: getConversationQuerySchema,
  response: ConversationDetailSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => siteConversation(siteId, params.conversation_id),
});
