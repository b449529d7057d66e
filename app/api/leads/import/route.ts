import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { importLeads } from '@/lib/leads/import';
import {
  IMPORT_INLINE_ROWS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  importBodySchema,
  importQuerySchema,
  LeadImportSchema,
} from '@/lib/leads/import-schema';

const tags = ['Leads'];

// POST /api/leads/import — import leads from a CSV file (multipart), deduplicated by email
export const POST = defineRoute({
  summary: 'Import leads from CSV',
  description:
    `multipart/form-data with \`file\` (CSV, UTF-8, \`,\` \`;\` or tab separated, quoted fields per RFC 4180, header row first) and \`mapping\` ` +
    `(JSON: column header → lead field or custom property key). At most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows and ${IMPORT_MAX_BYTES / 1024 / 1024} MB per file. ` +
    'Leads are matched by email within the site: an existing lead is updated (only the fields the file fills; custom properties merged), never duplicated. ' +
    'A whole-file fault (not CSV, no email column, a mapping naming a missing column or field, too many rows) is 400 and nothing is written; ' +
    'a bad row is skipped and listed in `errors` with its row number (the header is row 1), as is a later row repeating an email of the file (the first one is imported). ' +
    `Up to ${IMPORT_INLINE_ROWS.toLocaleString('en-US')} valid rows are written at once (200, \`status: completed\`); a larger file is written by a background job ` +
    '(202, `status: queued`): follow it at GET /api/leads/import/{import_id}. docs/PRODUCT.md "Lead import and export".',
  tags,
  auth: policies.keyOrMember,
  permission: 'crm.write',
  query: importQuerySchema,
  body: importBodySchema,
  bodyReading: { type: 'multipart', maxBytes: IMPORT_MAX_BYTES + 64 * 1024 },
  response: LeadImportSchema,
  openapi: { alsoSucceeds: { 202: 'Queued: a background job writes the rows (progress at GET /api/leads/import/{import_id})' } },
  errors: ['PAYLOAD_TOO_LARGE'],
  handler: async ({ siteId, body, res }) => {
    const result = await importLeads(siteId, body);
    if (result.queued) res.status = 202;
    return result.import;
  },
});
