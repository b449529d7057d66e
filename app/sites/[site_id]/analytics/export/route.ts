import { z } from 'zod';
import { EXPORT_ROWS, exportPeriod, exportQuerySchema } from '@/lib/analytics/export-zip';
import { PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/analytics/export — the whole period as a zip of CSV files
export const GET = analyticsRoute({
  summary: 'Export analytics as a zip of CSVs',
  description:
    'Answers `application/zip` (a download): `overview.csv` (one row per day and a `total` row) and one CSV per breakdown ' +
    `(\`pages.csv\`, \`referrers.csv\` …, the top ${EXPORT_ROWS} values of each) with the fields of the JSON reads. RFC 4180, UTF-8; a text value ` +
    "starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet never runs it as a formula. " +
    PERIOD_DESCRIPTION,
  query: exportQuerySchema,
  envelope: 'raw',
  response: z.string().describe('The zip archive (application/zip)'),
  openapi: {
    successMedia: {
      json: false,
      description: 'The zip archive',
      types: { 'application/zip': { description: 'overview.csv and one CSV per breakdown' } },
    },
  },
  handler: async ({ siteId, query }) => {
    const { filename, data } = await exportPeriod(siteId, query);
    return new Response(new Uint8Array(data), {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'private, no-store',
      },
    });
  },
});
