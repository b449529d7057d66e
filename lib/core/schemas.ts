import { z } from 'zod';

/** Small schemas shared by every domain: ids, pagination, timestamps. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export const uuidSchema = z.string().regex(UUID, 'Must be a UUID').meta({ format: 'uuid' });
export const siteIdSchema = uuidSchema.describe('Site id (UUID); must be the site of the credential');
/** The largest value of a PostgreSQL `integer` column: integer fields stored in one are capped here. */
export const INT4_MAX = 2_147_483_647;

export const isoTimestamp = z.string().describe('ISO 8601 timestamp');

export const paginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1–100 (default 20)'),
  offset: z.coerce.number().int().min(0).default(0).describe('Items to skip (default 0)'),
});

export const PaginationMetaSchema = z.object({
  total: z.number().int().describe('Items matching the filter'),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean().describe('True when items follow this page'),
});

export type PaginationMeta = z.infer<typeof PaginationMetaSchema>;

export const paginationMeta = (total: number, limit: number, offset: number): PaginationMeta => ({
  total,
  limit,
  offset,
  has_more: offset + limit < total,
});

/** Every field optional (create bodies). */
export const optionalFields = <T extends Record<string, z.ZodType>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };

/** Every field optional, and `null` clears it (update bodies). */
export const clearableFields = <T extends Record<string, z.ZodType>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.nullable().optional()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
  };

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 500;

/** `limit`/`offset` of a list read up to LIST_LIMIT_MAX items a page, from numbers made by `number`. */
const listPagination = <N extends z.ZodNumber | z.ZodCoercedNumber>(number: () => N) => ({
  limit: number()
    .int()
    .min(1)
    .max(LIST_LIMIT_MAX)
    .default(LIST_LIMIT_DEFAULT)
    .describe(`Page size, 1–${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT})`),
  offset: number().int().min(0).default(0).describe('Items to skip (default 0)'),
});

/** `limit`/`offset` of the POST list tools (JSON numbers, not query strings). */
export const listBodyPagination = listPagination(() => z.number());

/** `limit`/`offset` of a GET list (query strings read as numbers). */
export const listQueryPagination = listPagination(() => z.coerce.number());

/** The pagination fields of a list result that carries its items next to them (`{items…, total, limit, offset, has_more}`). */
export const listResultShape = PaginationMetaSchema.shape;

/**
 * Pagination of a list whose count stops one past the page (a search over a large table: the
 * count would cost more than the page). `has_more` is exact; `total` is exact unless
 * `total_capped`, when it is `offset + limit + 1`: more items match than the page reaches.
 */
export const CappedPaginationMetaSchema = PaginationMetaSchema.extend({
  total: z.number().int().describe('Items matching the filter, counted up to one past this page: exact unless `total_capped`'),
  total_capped: z.boolean().describe('True when more items match than this page reaches: `total` is then `offset + limit + 1`, a lower bound'),
});

export type CappedPaginationMeta = z.infer<typeof CappedPaginationMetaSchema>;

/** A page's count as a capped list reports it (see CappedPaginationMetaSchema). */
export interface CappedTotal {
  total: number;
  capped: boolean;
}

export const cappedPaginationMeta = ({ total, capped }: CappedTotal, limit: number, offset: number): CappedPaginationMeta => ({
  ...paginationMeta(total, limit, offset),
  total_capped: capped,
});
