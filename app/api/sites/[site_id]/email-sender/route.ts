import { emailSenderBodySchema, EmailSenderSchema } from '@/lib/email/schema';
import { senderOf, updateSender } from '@/lib/email/service';
import { siteEmailRoute } from '@/lib/http/site-routes';

// GET /api/sites/{site_id}/email-sender — who the site's messages come from
export const GET = siteEmailRoute({
  summary: 'Sender identity of a site',
  description: 'The From address, display name and Reply-To every message of the site carries (workflows, agents, platform API).',
  permission: 'site.read',
  response: EmailSenderSchema,
  handler: ({ siteId }) => senderOf(siteId!),
});

// PUT /api/sites/{site_id}/email-sender — change the site's sender identity
export const PUT = siteEmailRoute({
  summary: 'Change the sender identity of a site',
  description:
    'Only the fields given change; `null` goes back to the default (EMAIL_FROM’s address, the site’s name, no Reply-To). ' +
    'With SMTP_URL the server must accept the From address; setting Reply-To to the site’s mailbox brings replies to its sync.',
  permission: 'settings.manage',
  body: emailSenderBodySchema,
  response: EmailSenderSchema,
  handler: ({ siteId, body }) => updateSender(siteId!, body),
});
