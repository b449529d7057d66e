// route-manifest: exempt — the console's CSV download of an Overview table (the API's is format=csv on the analytics routes)
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { breakdownCsv, overviewCsv } from '@/lib/analytics/csv';
import { BREAKDOWN_DIMENSIONS, type BreakdownDimension } from '@/lib/analytics/schema';
import { breakdown, overview } from '@/lib/analytics/service';
import { csvResponse } from '@/lib/core/csv';
import { ApiError } from '@/lib/core/errors';

/**
 * GET /console/sites/{siteId}/export/{table}?from&to&f… — one table of the Overview as a CSV
 * download, for the signed-in member: `series` (one record per day) or a breakdown dimension (up
 * to 100 rows), over the period and filters the page shows (days in the site's time zone).
 */
export async function GET(req: Request, { params }: { params: Promise<{ siteId: string; table: string }> }): Promise<Response> {
  const { siteId, table } = await params;
  const { site } = await requireSiteAccess(siteId);
  const q = new URL(req.url).searchParams;
  const range = { from: q.get('from') || undefined, to: q.get('to') || undefined, timezone: 'site' as const, filter: q.getAll('f') };
  try {
    if (table === 'series') {
      const { csv, fileName } = overviewCsv(await overview(site.id, range));
      return csvResponse(csv, fileName);
    }
    if (!(BREAKDOWN_DIMENSIONS as readonly string[]).includes(table)) return new Response('No such table', { status: 404 });
    const { csv, fileName } = breakdownCsv(await breakdown(site.id, table as BreakdownDimension, { ...range, limit: 100 }));
    return csvResponse(csv, fileName);
  } catch (error) {
    if (error instanceof ApiError) return new Response(error.message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    throw error;
  }
}
