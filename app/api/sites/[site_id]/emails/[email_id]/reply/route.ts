import { sendAgentReply } from '@/lib/email/agent-reply';
import { agentReplyBodySchema, emailPathSchema, SentEmailSchema } from '@/lib/email/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { requestOrigin } from '@/lib/http/request-origin';

// POST /api/sites/{site_id}/emails/{email_id}/reply — send the email agent's answer to a received message
export const POST = defineRoute({
  summary: 'Send the email agent’s answer to a received message',
  description:
    'Sends the draft of the email agent’s command the message was handed to (or `text`) to its sender through the email ' +
    'port (outbox, or SMTP with SMTP_URL): from the site’s sender identity, `Re:` its subject, In-Reply-To and References ' +
    'its Message-ID, with List-Unsubscribe, linked to the lead and the agent’s conversation. 404 for a message that is ' +
    'not a received one of the site; 422 UNPROCESSABLE for a bounce or automatic reply (never answered) or a sender on the ' +
    'suppression list (nothing sent); 409 CONFLICT when it was answered already or the agent has no finished draft and no ' +
    '`text` is given; 502 PROVIDER_ERROR when the SMTP server refuses it.',
  tags: ['Email'],
  auth: policies.owner,
  permission: 'crm.write',
  params: emailPathSchema,
  body: agentReplyBodySchema,
  response: SentEmailSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR'],
  handler: ({ siteId, params, body, req }) => sendAgentReply(siteId!, params.email_id, body, requestOrigin(req)),
});
