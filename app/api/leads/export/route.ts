import { z } from 'zod';
import { now } from '@/lib/core/clock';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { exportFileName, exportLeadsCsv } from '@/lib/leads/export';
import { exportQuerySchema, propertyFiltersOf } from '@/lib/leads/export-schema';

// GET /api/leads/export — the site's leads as a CSV file, with the leads list's filters
export const GET = defineRoute({
  summary: 'Export leads as CSV',
  description:
    'The leads matching `search`, `status`, `segment_id` and `property.<key>=value` (custom property filters, several allowed), newest first, ' +
    'as a UTF-8 CSV file (with BOM) streamed as it is read: the lead fields, then one column per custom property. Text fields are quoted; ' +
    "a text value starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet never runs it as a formula " +
    '(the import removes the mark again). docs/PRODUCT.md "Lead import and export".',
  tags: ['Leads'],
  auth: policies.keyOrMember,
  errors: ['NOT_FOUND'],
  query: exportQuerySchema,
  response: z.string().describe('CSV file'),
  openapi: {
    successMedia: {
      json: false,
      description: 'The leads as CSV (RFC 4180), one record per lead',
      types: {
        'text/csv': {
          description: 'One record per lead, custom properties as columns',
          example: '\ufeffid,name,email,status\r\nab0dc2dd-858e-44a8-895d-d44b110684b9,Ada Lovelace,ada@example.com,qualified\r\n',
        },
      },
    },
  },
  handler: async ({ siteId, query }) => {
    const stream = await exportLeadsCsv(siteId, {
      search: query.search,
      status: query.status,
      segment_id: query.segment_id,
      properties: propertyFiltersOf(query),
    });
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${exportFileName(new Date(now()))}"`,
        'cache-control': 'no-store',
      },
    });
  },
});
