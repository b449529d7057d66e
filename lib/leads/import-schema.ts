import { z } from 'zod';
import { isoTimestamp, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/**
 * CSV import of leads: the file, how its columns map to lead fields and custom properties, and
 * the answer. docs/PRODUCT.md "Lead import and export" tells the rules.
 */

/** Most data rows (below the header) one file may hold. */
export const IMPORT_MAX_ROWS = 10_000;
/** Largest file accepted, in bytes. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** A file of more rows than this is imported by a background job (202, progress at GET /api/leads/import/{id}). */
export const IMPORT_INLINE_ROWS = 1_000;
/** Rows written per transaction by the job (the progress advances by this much). */
export const IMPORT_BATCH_ROWS = 1_000;

/** The lead fields a column may fill (besides the site's custom property keys). */
export const IMPORT_LEAD_FIELDS = [
  'email',
  'name',
  'first_name',
  'last_name',
  'phone',
  'company',
  'position',
  'notes',
  'origin',
  'status',
  'lead_score',
] as const;
export type ImportLeadField = (typeof IMPORT_LEAD_FIELDS)[number];

export const importQuerySchema = z.strictObject({ site_id: siteIdSchema });

export const importBodySchema = z.strictObject({
  file: z
    .file()
    .describe(`The CSV file (UTF-8; \`,\` \`;\` or tab separated; header row first; at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows)`),
  mapping: z
    .string()
    .optional()
    .describe(
      'JSON object: CSV column header → lead field (`' +
        IMPORT_LEAD_FIELDS.join('`, `') +
        '`) or custom property key; a column mapped to null or left out is ignored. `email` must be mapped. Without `mapping`, the columns are matched from their headers as the console proposes.',
    ),
});

export const importParamsSchema = z.strictObject({ import_id: uuidSchema.describe('The import') });

export const ImportRowErrorSchema = z.object({
  row: z.number().int().describe('Row number in the file: the header is row 1'),
  message: z.string(),
});

export const LeadImportSchema = z.object({
  import_id: uuidSchema,
  site_id: uuidSchema,
  file_name: z.string().nullable(),
  status: z.enum(['queued', 'running', 'completed', 'failed']).describe('completed: every row was written or reported'),
  total_rows: z.number().int().describe('Data rows of the file (blank rows not counted)'),
  processed_rows: z.number().int().describe('Rows done so far (written, or skipped with an error)'),
  created: z.number().int().describe('New leads'),
  updated: z.number().int().describe('Existing leads of the site (same email) whose mapped fields were updated'),
  skipped: z.number().int().describe('Rows not written: each one is in `errors`'),
  errors: z.array(ImportRowErrorSchema).describe('Rows skipped and why, by row number'),
  failure: z.string().nullable().describe('Why a failed import stopped (the rows written before it stay)'),
  created_at: isoTimestamp,
  completed_at: isoTimestamp.nullable(),
});

export type LeadImport = z.infer<typeof LeadImportSchema>;
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

/** One validated row, ready to write: the lead's fields as given (absent: not in the file or empty). */
export interface PreparedRow {
  email: string;
  /** Name for a new lead: the given name, else first and last name, else the email's local part. */
  newName: string;
  /** The name to set on an existing lead, when the file gives one. */
  name: string | null;
  phone: string | null;
  company: string | null;
  position: string | null;
  notes: string | null;
  origin: string | null;
  status: string | null;
  lead_score: number | null;
  custom: Record<string, string | number>;
}
