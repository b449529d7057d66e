import { recipientPathSchema, RecipientSchema, verifyRecipientBodySchema } from '@/lib/email/schema';
import { verifyRecipient } from '@/lib/email/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/sites/{site_id}/email-recipients/{recipient_id}/verify — enter the code mailed to the address
export const POST = defineRoute({
  summary: 'Verify a test recipient',
  description:
    'A matching code verifies the address. A wrong or expired code is 400 (`details.attempts_left`); after 5 wrong codes ' +
    'the pending code stops working and a new one must be requested. Verifying a verified address returns it unchanged.',
  tags: ['Email'],
  auth: policies.owner,
  permission: 'settings.manage',
  params: recipientPathSchema,
  body: verifyRecipientBodySchema,
  response: RecipientSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => verifyRecipient(siteId!, params.recipient_id, body.code),
});
