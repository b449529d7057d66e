import { found } from '@/lib/core/errors';
import { configureMailbox, getMailbox, removeMailbox } from '@/lib/email/inbound';
import { mailboxBodySchema, MailboxSchema } from '@/lib/email/schema';
import { siteEmailRoute } from '@/lib/http/site-routes';
import { MessageSchema } from '@/lib/platform/schema';

// GET /api/sites/{site_id}/mailbox — the site's IMAP mailbox and how far its sync got
export const GET = siteEmailRoute({
  summary: 'Mailbox of a site',
  description: 'The IMAP connection (never the password) and the sync position; 404 when the site has no mailbox.',
  permission: 'site.read',
  response: MailboxSchema,
  errors: ['NOT_FOUND'],
  handler: async ({ siteId }) => found(await getMailbox(siteId!), 'Mailbox'),
});

// PUT /api/sites/{site_id}/mailbox — set up or change the site's IMAP mailbox
export const PUT = siteEmailRoute({
  summary: 'Set up the mailbox of a site',
  description:
    'The password is stored as the secure token `mailbox.imap` of the site (encrypted, never returned); omit it to keep the ' +
    'stored one. A changed host, port, username or folder starts the sync over. The host must resolve to a public address ' +
    '(or be in OUTBOUND_ALLOW_HOSTS). Check the connection with POST …/mailbox/check; the sync runs every ' +
    'MAILBOX_SYNC_EVERY_MINUTES (default 15) as a `syncEmails` run, or when started.',
  permission: 'settings.manage',
  body: mailboxBodySchema,
  response: MailboxSchema,
  errors: ['PROVIDER_NOT_CONFIGURED'],
  handler: ({ siteId, body, principal }) => configureMailbox(siteId!, principal, body),
});

// DELETE /api/sites/{site_id}/mailbox — stop syncing the site's mailbox
export const DELETE = siteEmailRoute({
  summary: 'Remove the mailbox of a site',
  permission: 'settings.manage',
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId }) => removeMailbox(siteId!),
});
