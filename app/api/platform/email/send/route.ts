import { sendEmailBodySchema, SentEmailSchema } from '@/lib/email/schema';
import { platformKey } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { sendEmailForApp } from '@/lib/platform/service';

// POST /api/platform/email/send — send a transactional email through the email port
export const POST = defineRoute({
  summary: 'Send a transactional email (platform)',
  description:
    'Sends one message (`text` and/or `html`) to 1–50 recipients. Without SMTP_URL the message goes to the ' +
    "site's outbox, readable by the owner in the console (`transport: outbox`, nothing leaves the machine); with SMTP_URL " +
    'it is handed to that SMTP server (`transport: smtp`; 502 PROVIDER_ERROR when the server refuses it). A key with ' +
    '`email.send` may write to anyone; a key with only `email.send.test-only` only to the site owner’s verified addresses ' +
    '(403 with `details.not_verified` otherwise). The message comes from the site’s sender identity and carries a ' +
    'Message-ID; to one recipient it also carries List-Unsubscribe (one-click). A recipient on the site’s suppression list ' +
    '(unsubscribed or bounced) is never written to: 422 UNPROCESSABLE with `details.suppressed`, nothing sent. One unit of the daily quota of the capability used per recipient, given ' +
    'back when the delivery fails.',
  tags: ['Platform API'],
  auth: platformKey(['email.send', 'email.send.test-only']),
  body: sendEmailBodySchema,
  response: SentEmailSchema,
  status: 201,
  errors: ['RATE_LIMITED', 'PROVIDER_ERROR', 'UNPROCESSABLE'],
  handler: ({ principal, body }) => sendEmailForApp(principal, body),
});
