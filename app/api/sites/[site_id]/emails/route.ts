import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { EmailMessageSchema, emailLogQuerySchema } from '@/lib/email/schema';
import { emailLog, leadEmailHistory } from '@/lib/email/service';
import { siteEmailRoute } from '@/lib/http/site-routes';

// GET /api/sites/{site_id}/emails — the site's email log: the outbox, and what went to the SMTP server
export const GET = siteEmailRoute({
  summary: 'Email outbox and log of a site (sent and received)',
  description:
    'Messages the site sent, newest first. `transport: outbox` (no SMTP_URL): the whole message, which never left the ' +
    'machine. `transport: smtp`: the envelope of what was handed to the SMTP server (`sent`) or refused by it (`failed`); ' +
    'bodies are not kept. `transport: imap`: received in the site’s mailbox (`direction: inbound`, `kind` reply, message, ' +
    'bounce or auto_reply). Each message carries its Message-ID and the lead, run and conversation it belongs to; ' +
    '`lead_id` narrows the log to one lead’s email history. `meta` carries `{total, limit, offset, has_more}`.',
  permission: 'site.read',
  query: emailLogQuerySchema,
  response: z.array(EmailMessageSchema),
  handler: async ({ siteId, query, res }) => {
    const page = { limit: query.limit, offset: query.offset };
    const { items, total } = query.lead_id ? await leadEmailHistory(siteId!, query.lead_id, page) : await emailLog(siteId!, page);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
