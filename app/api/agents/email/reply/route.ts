import { emailReplyBodySchema } from '@/lib/agents/schema';
import { emailReplyRequest } from '@/lib/agents/service';
import { agentRoute } from '@/lib/http/agent-route';

// POST /api/agents/email/reply — draft a reply to an inbound email
export const POST = agentRoute({
  summary: 'Draft a reply to an inbound email',
  description:
    "The email agent drafts the body of a reply to the inbound email (sender, subject, text; optionally the lead or visitor it comes from) in the brand's voice. The draft is the command's `reply` and the conversation's assistant message; it is not sent.",
  body: emailReplyBodySchema,
  request: emailReplyRequest,
});
