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

/** One message the owner writes in the console, to one person, from the site's sender. */
export const composeEmailBodySchema = z.strictObject({
  to: z.string().trim().min(1, 'Enter the address to write to').pipe(emailAddressSchema),
  subject: headerText(998, 'Subject, one line').min(1, 'Subject is required'),
  text: z.string().trim().min(1, 'Write the message').max(EMAIL_MAX_BODY_CHARS).describe('Plain-text body'),
});
export type ComposeEmailInput = z.infer<typeof composeEmailBodySchema>;

export const EMAIL_TRANSPORTS = ['outbox', 'smtp', 'imap'] as const;
export const EMAIL_STATUSES = ['stored', 'sent', 'failed', 'received'] as const;
export const INBOUND_KINDS = ['reply', 'message', 'bounce', 'auto_reply'] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

export const SentEmailSchema = z.object({
  id: uuidSchema.describe('Message id in the site’s email log'),
  transport: z
    .enum(EMAIL_TRANSPORTS)
    .describe('outbox: kept in the console outbox, nothing left the machine; smtp: handed to the SMTP server; imap: received in the site’s mailbox'),
  status: z.enum(EMAIL_STATUSES),
  to: z.array(z.string()),
  provider_message_id: z.string().nullable().describe('Message-ID the SMTP server accepted (smtp)'),
  message_id: z.string().nullable().describe('The Message-ID header of the message'),
  created_at: isoTimestamp,
});
export type SentEmail = z.infer<typeof SentEmailSchema>;

export const EmailMessageSchema = SentEmailSchema.extend({
  app_id: uuidSchema.nullable().describe('The app that sent it; null for messages of the console (address verification)'),
  from: z.string(),
  subject: z.string(),
  text: z.string().nullable().describe('Kept for outbox messages only'),
  html: z.string().nullable().describe('Kept for outbox messages only'),
  direction: z.enum(['outbound', 'inbound']).describe('outbound: sent by the site; inbound: received in its mailbox'),
  in_reply_to: z.string().nullable().describe('The Message-ID this message answers (inbound)'),
  kind: z
    .enum(INBOUND_KINDS)
    .nullable()
    .describe('Inbound: reply (answers a message of the site), message (from a lead, not threaded), bounce or auto_reply (never answered)'),
  lead_id: uuidSchema.nullable().describe('The lead the message went to or came from'),
  workflow_id: z.string().nullable().describe('The workflow run that sent it'),
  conversation_id: uuidSchema.nullable().describe('The agent conversation it belongs to'),
  command_id: uuidSchema.nullable().describe('The email agent’s command an inbound reply was handed to'),
});
export type EmailMessage = z.infer<typeof EmailMessageSchema>;

// ——— Sender identity ———

/** A display name: one line, no quotes or angle brackets (it is written into the From header). */
const displayName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\r\n"<>\\]*$/, 'Must be one line without quotes, angle brackets or backslashes');

export const emailSenderBodySchema = z.strictObject({
  from_address: emailAddressSchema.nullable().optional().describe('From address (null: the deployment’s EMAIL_FROM address)'),
  from_name: displayName.nullable().optional().describe('Display name (null: the site’s name)'),
  reply_to: emailAddressSchema.nullable().optional().describe('Reply-To address, e.g. the site’s mailbox (null: none)'),
});
export type EmailSenderInput = z.infer<typeof emailSenderBodySchema>;

export const EmailSenderSchema = z.object({
  from_address: z.string().describe('The From address messages carry'),
  from_name: z.string().describe('The display name messages carry'),
  reply_to: z.string().nullable(),
  customized: z.boolean().describe('false while every field is the default'),
});
export type EmailSender = z.infer<typeof EmailSenderSchema>;

// ——— Suppression list ———

export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'manual', 'erased'] as const;
export const SuppressionSchema = z.object({
  email: z.string(),
  reason: z
    .enum(SUPPRESSION_REASONS)
    .describe(
      'unsubscribed: the one-click link; bounced: a bounce named it; manual: the owner; erased: a person whose data was erased (the entry holds a hash of the address, never the address)',
    ),
  created_at: isoTimestamp,
});
export type Suppression = z.infer<typeof SuppressionSchema>;

export const unsubscribeQuerySchema = z.strictObject({
  token: z.string().min(10).max(2_000).describe('The signed token of the List-Unsubscribe link'),
});

// ——— Mailbox (IMAP) ———

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/, 'Must be a host name or IP address')
  .describe('IMAP server host');

export const mailboxBodySchema = z.strictObject({
  host: hostname,
  port: z.number().int().min(1).max(65_535).default(993).describe('IMAP port (993 with TLS, 143 without)'),
  tls: z.boolean().default(true).describe('Connect with TLS from the start (IMAPS)'),
  username: z.string().trim().min(1).max(320).describe('Login name'),
  password: z
    .string()
    .min(1)
    .max(1_000)
    .optional()
    .describe('Password; stored as a secure token of the site and never returned. Omit to keep the stored one'),
  folder: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\r\n]*$/)
    .default('INBOX')
    .describe('Folder to sync (default INBOX)'),
});
export type MailboxInput = z.infer<typeof mailboxBodySchema>;

export const MailboxSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  username: z.string(),
  folder: z.string(),
  secret_id: uuidSchema.describe('The secure token holding the password'),
  last_uid: z.number().int().describe('Highest UID synced so far'),
  last_sync_at: isoTimestamp.nullable(),
  last_error_code: z
    .string()
    .nullable()
    .describe('MAILBOX_AUTH_FAILED, MAILBOX_UNREACHABLE or MAILBOX_FOLDER_NOT_FOUND when the last attempt failed'),
});
export type Mailbox = z.infer<typeof MailboxSchema>;

export const MailboxCheckSchema = z.object({
  ok: z.boolean(),
  code: z.string().nullable().describe('MAILBOX_AUTH_FAILED, MAILBOX_UNREACHABLE or MAILBOX_FOLDER_NOT_FOUND when not ok'),
  message: z.string(),
  messages: z.number().int().nullable().describe('Messages in the folder'),
});
export type MailboxCheck = z.infer<typeof MailboxCheckSchema>;

export const emailLogQuerySchema = paginationQuerySchema.extend({
  lead_id: uuidSchema.optional().describe('Only the messages sent to or received from this lead (its email history)'),
});

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

export const emailPathSchema = z.strictObject({ site_id: siteIdSchema, email_id: uuidSchema.describe('Message id in the site’s email log') });

export const agentReplyBodySchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1)
    .max(EMAIL_MAX_BODY_CHARS)
    .optional()
    .describe('The text to send; omitted: the email agent’s finished draft for this message'),
});
