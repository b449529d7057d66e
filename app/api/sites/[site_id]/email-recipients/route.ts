import { z } from 'zod';
import { addRecipientBodySchema, RecipientSchema } from '@/lib/email/schema';
import { addRecipient, listRecipients } from '@/lib/email/service';
import { siteEmailRoute } from '@/lib/http/site-routes';

// GET /api/sites/{site_id}/email-recipients — the owner's addresses for test email, verified or pending
export const GET = siteEmailRoute({
  summary: 'List test recipients of a site',
  permission: 'site.read',
  response: z.array(RecipientSchema),
  handler: ({ siteId }) => listRecipients(siteId!),
});

// POST /api/sites/{site_id}/email-recipients — add an owner address and mail it a verification code
export const POST = siteEmailRoute({
  summary: 'Add a test recipient',
  description:
    'Mails a verification code (8 characters, valid 24 hours) to the address through the email port (the outbox when ' +
    'SMTP_URL is unset). Entering it with the verify route makes the address a verified recipient: keys with only ' +
    '`email.send.test-only` may send to it. Posting a pending address again sends a new code (at most one a minute: 429); ' +
    'a verified one is 409; an address on the site’s suppression list is 422 UNPROCESSABLE (nothing stored or sent).',
  permission: 'settings.manage',
  body: addRecipientBodySchema,
  response: RecipientSchema,
  status: 201,
  errors: ['CONFLICT', 'RATE_LIMITED', 'PROVIDER_ERROR', 'UNPROCESSABLE'],
  handler: ({ siteId, body }) => addRecipient(siteId!, body.email),
});
