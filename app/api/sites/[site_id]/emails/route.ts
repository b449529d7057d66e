import { z } from 'zod';
import { EmailMessageSchema, emailLogQuerySchema } from '@/lib/email/schema';
import { emailLog } from '@/lib/email/service';
import { defineRoute } from '@/lib/http/define-route';
import { paginationMeta } from '@/lib/core/schemas';
import { sitePathSchema } from '@/lib/platform/schema';

// GET /api/sites/{site_id}/emails — the site's email log: the outbox, and what went to the SMTP server
export const GET = defineRoute({
  summary: 'Email outbox and log of a site',
  description:
    'Messages the site sent, newest first. `transport: outbox` (no SMTP_URL): the whole message, which never left the ' +
    'machine. `transport: smtp`: the envelope of what was handed to the SMTP server (`sent`) or refused by it (`failed`); ' +
    'bodies are not kept. `meta` carries `{total, limit, offset, has_more}`.',
  tags: ['Email'],
  auth: { kind: 'session' },
  params: sitePathSchema,
  query: emailLogQuerySchema,
  response: z.array(EmailMessageSchema),
  handler: async ({ siteId, query, res }) => {
    const { items, total } = await emailLog(siteId!, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
