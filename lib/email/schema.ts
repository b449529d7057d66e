import { z } from 'zod';
import { isoTimestamp, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

export const emailAddressSchema = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email('Must be a valid email address'))
  .transform((e) => e.toLowerCase())
  .meta({ format: 'email' })
  .describe('Email address (compared lower-case)');

/** A header line: no line breaks (they would start a new header). */
const headerText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[^\r\n]*$/, 'Must be a single line')
    .describe(what);

export const EMAIL_MAX_RECIPIENTS = 50;
export const EMAIL_MAX_BODY_CHARS = 200_000;

export const sendEmailBodySchema = z
  .strictObject({
    site_id: siteIdSchema.optional(),
    to: z
      .array(emailAddressSchema)
      .min(1, 'At least one recipient is required')
      .max(EMAIL_MAX_RECIPIENTS, `At most ${EMAIL_MAX_RECIPIENTS} recipients`)
      .refine((to) => new Set(to).size === to.length, 'Recipients must not repeat')
      .describe(`1–${EMAIL_MAX_RECIPIENTS} recipients`),
    subject: headerText(998, 'Subject, one line, at most 998 characters'),
    text: z.string().min(1).max(EMAIL_MAX_BODY_CHARS).optional().describe('Plain-text body'),
    html: z.string().min(1).max(EMAIL_MAX_BODY_CHARS).optional().describe('HTML body (sent as is; no remote content is fetched)'),
    reply_to: emailAddressSchema.optional().describe('Reply-To address'),
  })
  .refine((b) => b.text !== undefined || b.html !== undefined, { message: 'text or html is required', path: ['text'] });
export type SendEmailInput = z.infer<typeof sendEmailBodySchema>;

export const EMAIL_TRANSPORTS = ['outbox', 'smtp'] as const;
export const EMAIL_STATUSES = ['stored', 'sent', 'failed'] as const;

export const SentEmailSchema = z.object({
  id: uuidSchema.describe('Message id in the site’s email log'),
  transport: z.enum(EMAIL_TRANSPORTS).describe('outbox: kept in the console outbox, nothing left the machine; smtp: handed to the SMTP server'),
  status: z.enum(EMAIL_STATUSES),
  to: z.array(z.string()),
  provider_message_id: z.string().nullable().describe('Message-ID the SMTP server accepted (smtp)'),
  created_at: isoTimestamp,
});
export type SentEmail = z.infer<typeof SentEmailSchema>;

export const EmailMessageSchema = SentEmailSchema.extend({
  app_id: uuidSchema.nullable().describe('The app that sent it; null for messages of the console (address verification)'),
  from: z.string(),
  subject: z.string(),
  text: z.string().nullable().describe('Kept for outbox messages only'),
  html: z.string().nullable().describe('Kept for outbox messages only'),
});
export type EmailMessage = z.infer<typeof EmailMessageSchema>;

export const emailLogQuerySchema = paginationQuerySchema;

// ——— The owner's verified addresses ———

export const recipientPathSchema = z.strictObject({ site_id: siteIdSchema, recipient_id: uuidSchema.describe('Recipient id') });

export const addRecipientBodySchema = z.strictObject({ email: emailAddressSchema });

export const verifyRecipientBodySchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .transform((c) => c.replace(/[\s-]/g, '').toUpperCase())
    .describe('The code from the verification email (dashes and spaces ignored)'),
});

export const RecipientSchema = z.object({
  id: uuidSchema,
  email: z.string(),
  verified: z.boolean(),
  verified_at: isoTimestamp.nullable(),
  code_expires_at: isoTimestamp.nullable().describe('When the pending code stops working'),
  created_at: isoTimestamp,
});
export type Recipient = z.infer<typeof RecipientSchema>;
