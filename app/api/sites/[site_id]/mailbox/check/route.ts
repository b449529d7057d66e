import { checkSiteMailbox } from '@/lib/email/inbound';
import { MailboxCheckSchema } from '@/lib/email/schema';
import { siteEmailRoute } from '@/lib/http/site-routes';

// POST /api/sites/{site_id}/mailbox/check — sign in to the site's mailbox and open its folder
export const POST = siteEmailRoute({
  summary: 'Check the mailbox connection',
  description:
    'Signs in with the stored password and opens the folder. `ok: false` names the failure in `code`: MAILBOX_AUTH_FAILED ' +
    '(username or password refused), MAILBOX_UNREACHABLE (no connection, TLS or timeout, or a non-public host), ' +
    'MAILBOX_FOLDER_NOT_FOUND, MAILBOX_NOT_CONFIGURED.',
  permission: 'crm.write',
  response: MailboxCheckSchema,
  errors: ['PROVIDER_NOT_CONFIGURED'],
  handler: ({ siteId }) => checkSiteMailbox(siteId!),
});
