import { z } from 'zod';
import { KEY_PREFIX_PATTERN } from '@/lib/auth/api-key-format';
import { SCOPES, type Scope } from '@/lib/core/principal';
import { isoTimestamp, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

export const scopeSchema = z.enum(SCOPES);
export type { Scope };

export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

/** A new key's lifetime in days (API keys and platform keys alike). */
export const expirationDaysSchema = z
  .number('Expiry must be a number of days')
  .int('Expiry must be a whole number of days')
  .min(1, 'Expiry must be 1–365 days')
  .max(365, 'Expiry must be 1–365 days')
  .default(90)
  .describe('Days until the key expires, 1–365 (default 90)');

export const createKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters').describe('Descriptive name'),
  scopes: z
    .array(scopeSchema)
    .min(1, 'At least one scope is required')
    .refine((s) => new Set(s).size === s.length, 'Scopes must not repeat')
    .describe('Non-empty subset of read, write'),
  site_id: siteIdSchema,
  expirationDays: expirationDaysSchema,
  prefix: z
    .string()
    .regex(KEY_PREFIX_PATTERN, 'Prefix must be 1–16 lowercase letters or digits')
    .default('key')
    .describe('Key prefix, 1–16 lowercase letters or digits (default "key")'),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 4096, 'Metadata must be at most 4 KB serialized')
    .optional()
    .describe('Free-form metadata, at most 4 KB'),
  user_id: uuidSchema.optional().describe('Creating user; when given it must be the signed-in user'),
});

export const listKeysQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  user_id: uuidSchema.optional().describe('When given it must be the signed-in user'),
});

export const revokeKeyQuerySchema = listKeysQuerySchema.extend({
  id: uuidSchema.describe('Key id'),
});

export const updateKeyBodySchema = z.strictObject({
  id: uuidSchema.describe('Key id'),
  site_id: siteIdSchema,
  scopes: createKeyBodySchema.shape.scopes.describe("The key's new scopes: a non-empty subset of read, write"),
  user_id: uuidSchema.optional().describe('When given it must be the signed-in user'),
});

export const CreatedKeySchema = z.object({
  apiKey: z.string().describe('The full key. Shown only in this response; store it now.'),
  id: uuidSchema,
  prefix: z.string(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  site_id: uuidSchema,
  expires_at: isoTimestamp,
  created_at: isoTimestamp,
});

export const KeySchema = z.object({
  id: uuidSchema,
  name: z.string(),
  prefix: z.string(),
  display: z.string().describe('Prefix and last four characters, e.g. key_…a1B2, to tell keys apart'),
  status: z.enum(KEY_STATUSES),
  scopes: z.array(scopeSchema),
  metadata: z.record(z.string(), z.unknown()),
  expires_at: isoTimestamp,
  created_at: isoTimestamp,
  last_used_at: isoTimestamp.nullable(),
  revoked_at: isoTimestamp.nullable(),
});

export const RevokedKeySchema = z.object({ message: z.string() });

export type CreateKeyInput = z.infer<typeof createKeyBodySchema>;
export type UpdateKeyInput = z.infer<typeof updateKeyBodySchema>;
export type CreatedKey = z.infer<typeof CreatedKeySchema>;
export type KeySummary = z.infer<typeof KeySchema>;

export const keyUsagePathSchema = z.strictObject({ id: uuidSchema.describe('Key id') });

export const keyUsageQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .describe('Days to report, counting today (UTC), 1–365 (default 30); rows older than KEY_USAGE_RETENTION_DAYS are pruned'),
});

export const KeyUsageSchema = z.object({
  key_id: uuidSchema,
  site_id: uuidSchema,
  from: z.string().describe('First reported day, YYYY-MM-DD (UTC)'),
  to: z.string().describe('Last reported day (today), YYYY-MM-DD (UTC)'),
  retention_days: z.number().int().describe('How long per-request rows are kept (KEY_USAGE_RETENTION_DAYS)'),
  total_requests: z.number().int().describe('Requests over the reported days'),
  last_used_at: isoTimestamp.nullable().describe('Time of the latest request made with the key'),
  last_status: z.number().int().nullable().describe('HTTP status of the latest request'),
  days: z
    .array(
      z.object({
        date: z.string().describe('YYYY-MM-DD (UTC)'),
        requests: z.number().int(),
        errors: z.number().int().describe('Requests answered with status 400 or above'),
      }),
    )
    .describe('One entry per day of the range, oldest first, zero-filled'),
});

export type KeyUsage = z.infer<typeof KeyUsageSchema>;
