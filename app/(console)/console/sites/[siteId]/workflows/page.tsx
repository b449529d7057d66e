import type { Metadata } from 'next';
import Link from 'next/link';
import { withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { FilterInput, FilterSelect } from '@/components/kit/page-filters';
import { Notice } from '@/components/kit/page-notice';
import { Time } from '@/components/time';
import { ApiError } from '@/lib/core/errors';
import { can } from '@/lib/members/permissions';
import { RUN_TYPES, runTypeLabel } from '@/lib/workflows/catalog';
import { WORKFLOW_STATUSES } from '@/lib/workflows/engine';
import { listWorkflowsQuerySchema } from '@/lib/workflows/schema';
import { listWorkflowRuns } from '@/lib/workflows/service';
import { RunStatus, duration } from './run-status';

export const metadata: Metadata = { title: 'Workflows · Site Growth Platform' };

const PAGE_SIZE = 20;
type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const isDate = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);

/**
 * The site's workflow runs, newest first, with filters and next/previous pages: the same
 * listWorkflowRuns() as GET /api/logs/workflows. The pages already seen travel in `trail` (their
 * tokens, `0` for the first page), so "Previous" needs nothing stored.
 */
export default async function WorkflowsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const sp = await searchParams;
  const filters = {
    status: one(sp.status),
    type: one(sp.type),
    from: isDate(one(sp.from)),
    to: isDate(one(sp.to)),
  };
  const token = one(sp.pageToken);
  const trail = (one(sp.trail) ?? '').split('.').filter(Boolean);
  const parsed = listWorkflowsQuerySchema.safeParse({
    site_id: site.id,
    limit: PAGE_SIZE,
    pageToken: token,
    status: filters.status,
    type: filters.type,
    from: filters.from && `${filters.from}T00:00:00Z`,
    // "to" is inclusive of the chosen UTC day.
    to: filters.to && new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000).toISOString(),
  });
  let error: string | undefined;
  let page: Awaited<ReturnType<typeof listWorkflowRuns>> | undefined;
  if (!parsed.success) error = 'These filters are not valid.';
  else {
    try {
      const { site_id: _site, ...q } = parsed.data;
      page = await listWorkflowRuns(site.id, q);
    } catch (e) {
      error =
        e instanceof ApiError && e.code === 'INVALID_REQUEST'
          ? 'This page link is no longer valid; start from the first page.'
          : 'The runs could not be read.';
    }
  }
  const base = `/console/sites/${site.id}/workflows`;
  const link = (extra: Record<string, string | undefined>) => withQuery(base, filters, extra);
  const nextHref = page?.nextPageToken ? link({ pageToken: page.nextPageToken, trail: [...trail, token ?? '0'].join('.') }) : undefined;
  const previous = trail.at(-1);
  const prevHref =
    previous !== undefined
      ? link({ pageToken: previous === '0' ? undefined : previous, trail: trail.slice(0, -1).join('.') || undefined })
      : undefined;

  return (
    <Card
      title="Workflow runs"
      id="runs"
      actions={
        <>
          {can(role, 'crm.write') && (
            <Link href={`${base}/start`} className="button primary small">
              Start a workflow
            </Link>
          )}
        </>
      }
    >
      <p className="hint">Newest first. Open a run for its input, result or failure; a running run can be cancelled there.</p>
      <form className="filters" method="get" action={base} aria-label="Filter runs">
        <FilterSelect label="Status" name="status" value={filters.status} options={WORKFLOW_STATUSES} />
        <FilterSelect label="Workflow" name="type" value={filters.type} options={RUN_TYPES.map((t) => ({ value: t, label: runTypeLabel(t) }))} />
        <FilterInput label="Started from (UTC)" type="date" name="from" value={filters.from} />
        <FilterInput label="Started until (UTC)" type="date" name="to" value={filters.to} />
        <button className="button small" type="submit">
          Apply
        </button>
        <Link href={base}>Clear</Link>
      </form>
      {error ? (
        <Notice alert>{error}</Notice>
      ) : (
        page && (
          <>
            {page.records.length > 0 && (
              <p className="sub" data-testid="runs-total">
                {page.totalFound} {page.totalFound === 1 ? 'run' : 'runs'}
              </p>
            )}
            <DataTable
              caption="Workflow runs, newest first"
              rows={page.records}
              rowKey={(r) => r.workflowId}
              empty={<EmptyState title={`No runs${Object.values(filters).some(Boolean) ? ' match these filters' : ' yet'}.`} />}
              columns={[
                {
                  header: 'Workflow',
                  title: true,
                  cell: (r) => (
                    <Link href={`${base}/${encodeURIComponent(r.workflowId)}`} title={r.type}>
                      {runTypeLabel(r.type)}
                    </Link>
                  ),
                },
                { header: 'Status', cell: (r) => <RunStatus status={r.status} /> },
                { header: 'Started', cell: (r) => <Time iso={r.startTime} withDate /> },
                { header: 'Closed', cell: (r) => (r.closeTime ? <Time iso={r.closeTime} withDate /> : <span className="empty">—</span>) },
                { header: 'Duration', cell: (r) => duration(r.executionTime) },
              ]}
            />
          </>
        )
      )}
      <nav className="pager" aria-label="Pages of runs">
        {prevHref ? <Link href={prevHref}>← Previous page</Link> : <span />}
        {nextHref ? <Link href={nextHref}>Next page →</Link> : <span />}
      </nav>
    </Card>
  );
}
