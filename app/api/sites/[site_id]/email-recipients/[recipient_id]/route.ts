import { recipientPathSchema } from '@/lib/email/schema';
import { removeRecipient } from '@/lib/email/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { MessageSchema } from '@/lib/platform/schema';

// DELETE /api/sites/{site_id}/email-recipients/{recipient_id} — stop allowing test email to an address
export const DELETE = defineRoute({
  summary: 'Remove a test recipient',
  tags: ['Email'],
  auth: policies.owner,
  permission: 'settings.manage',
  params: recipientPathSchema,
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => removeRecipient(siteId!, params.recipient_id),
});
