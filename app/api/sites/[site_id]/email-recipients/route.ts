import { z } from 'zod';
import { addRecipientBodySchema, RecipientSchema } from '@/lib/email/schema';
import { addRecipient, listRecipients } from '@/lib/email/service';
import { defineRoute } from '@/lib/http/define-route';
import { sitePathSchema } from '@/lib/platform/schema';

const tags = ['Email'];
const auth = { kind: 'session' } as const;

// GET /api/sites/{site_id}/email-recipients — the owner's addresses for test email, verified or pending
export const GET = defineRoute({
  summary: 'List test recipients of a site',
  tags,
  auth,
  permission: 'site.read',
  params: sitePathSchema,
  response: z.array(RecipientSchema),
  handler: ({ siteId }) => listRecipients(siteId!),
});

// POST /api/sites/{site_id}/email-recipients — add an owner address and mail it a verification code
export const POST = defineRoute({
  summary: 'Add a test recipient',
  description:
    'Mails a verification code (8 characters, valid 24 hours) to the address through the email port (the outbox when ' +
    'SMTP_URL is unset). Entering it with the verify route makes the address a verified recipient: keys with only ' +
    '`email.send.test-only` may send to it. Posting a pending address again sends a new code (at most one a minute: 429); ' +
    'a verified one is 409; an address on the site’s suppression list is 422 UNPROCESSABLE (nothing stored or sent).',
  tags,
  auth,
  permission: 'settings.manage',
  params: sitePathSchema,
  body: addRecipientBodySchema,
  response: RecipientSchema,
  status: 201,
  errors: ['CONFLICT', 'RATE_LIMITED', 'PROVIDER_ERROR', 'UNPROCESSABLE'],
  handler: ({ siteId, body }) => addRecipient(siteId!, body.email),
});
