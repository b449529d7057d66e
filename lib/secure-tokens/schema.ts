import { z } from 'zod';
import { isoTimestamp, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/** Bodies and answers of /api/secure-tokens. A value goes in once and comes out only through decrypt. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024;

export const createSecureTokenBodySchema = z.strictObject({
  site_id: siteIdSchema,
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{0,49}$/, 'Type must be 1–50 lowercase letters, digits, _ . - (starting with a letter)')
    .describe('Kind of secret, e.g. api_key, oauth_token, password, webhook_secret'),
  identifier: z
    .string()
    .trim()
    .min(1, 'Identifier is required')
    .max(200, 'Identifier must be at most 200 characters')
    .describe('Name that tells the secret apart within the site (unique per site), e.g. "stripe.live"'),
  value: z
    .string()
    .min(1, 'Value is required')
    .refine((v) => Buffer.byteLength(v, 'utf8') <= SECRET_VALUE_MAX_BYTES, `Value must be at most ${SECRET_VALUE_MAX_BYTES} bytes`)
    .describe(`The secret, at most ${SECRET_VALUE_MAX_BYTES} bytes (UTF-8). Never returned by create or list.`),
});

export const listSecureTokensQuerySchema = paginationQuerySchema.extend({ site_id: siteIdSchema }).strict();

export const deleteSecureTokenQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  id: uuidSchema.describe('Secure token id'),
});

export const secureTokenPathSchema = z.strictObject({ id: uuidSchema.describe('Secure token id') });
export const decryptSecureTokenBodySchema = z.strictObject({ site_id: siteIdSchema });

export const SecureTokenSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  type: z.string(),
  identifier: z.string(),
  key_version: z.number().int().describe('Version of the master key that wraps this secret’s data key'),
  created_at: isoTimestamp,
  last_used_at: isoTimestamp.nullable().describe('Last successful decrypt'),
});

export const DecryptedSecureTokenSchema = z.object({
  id: uuidSchema,
  type: z.string(),
  identifier: z.string(),
  value: z.string().describe('The decrypted secret'),
});

export const DeletedSecureTokenSchema = z.object({ message: z.string() });

export const AUDIT_ACTIONS = ['create', 'delete', 'decrypt'] as const;
export const AUDIT_OUTCOMES = ['ok', 'not_found', 'rate_limited', 'integrity_failure', 'key_unavailable'] as const;

export const SecureTokenAuditSchema = z.object({
  id: uuidSchema,
  token_id: uuidSchema.nullable().describe('The secret asked for (it may have been deleted since, or never have been this site’s)'),
  identifier: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  outcome: z.enum(AUDIT_OUTCOMES),
  api_key_id: uuidSchema.nullable().describe('The API key that called, if any'),
  user_id: uuidSchema.nullable().describe('The signed-in user who called, if any'),
  created_at: isoTimestamp,
});

export type CreateSecureTokenInput = z.infer<typeof createSecureTokenBodySchema>;
export type SecureToken = z.infer<typeof SecureTokenSchema>;
export type SecureTokenAudit = z.infer<typeof SecureTokenAuditSchema>;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
