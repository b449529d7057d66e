import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, pageHref, peekedPage } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { SectionTable } from '@/components/kit/section-table';
import { schemaFields } from '@/components/schema-form/fields';
import { Time } from '@/components/time';
import { createQueryBodySchema } from '@/lib/finder/schema';
import { creditsOverview, listRoleQueries } from '@/lib/finder/service';
import { can } from '@/lib/members/permissions';
import { RoleQueryForm } from './role-query-form';

export const metadata: Metadata = { title: 'Finder · Site Growth Platform' };

const STATUS_LABEL: Record<string, string> = {
  pending: 'Waiting',
  mining: 'Mining',
  completed: 'Target reached',
  exhausted: 'No more people',
  out_of_credits: 'Out of credits',
};

/**
 * The site's finder credits (balance, this month's spend against the cap), its role queries with
 * their mining progress, and the recent ledger: the same reads as GET /api/finder/credits.
 */
export default async function FinderPage({ params, searchParams }: SitePageProps<{ offset?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const offset = offsetSchema.parse((await searchParams).offset);
  const [credits, read] = await Promise.all([creditsOverview(site.id, 20), listRoleQueries(site.id, { limit: PAGE_SIZE + 1, offset })]);
  const queries = peekedPage(read, offset);
  return (
    <>
      <Card title="Finder credits" id="credits">
        <p>
          Balance: <strong data-testid="finder-balance">{credits.balance.toLocaleString('en')}</strong> credits. Spent in {credits.month}:{' '}
          {credits.spent_this_month.toLocaleString('en')}
          {credits.monthly_cap !== null ? ` of a ${credits.monthly_cap.toLocaleString('en')} monthly cap` : ' (no monthly cap)'}.
        </p>
        <p className="hint">
          People searches, contact lookups and lead mining are paid from these credits, and only when the provider answers. Your operator grants
          credits. Prices: {Object.entries(credits.prices).map(([type, price], i) => `${i ? ', ' : ''}${type} ${price}`)}.
        </p>
      </Card>
      <SectionTable
        title="Role queries"
        id="queries"
        caption="Role queries and their mining progress"
        rows={queries.rows}
        empty={<EmptyState title="No role queries yet.">Create one below; mining starts at once.</EmptyState>}
        columns={[
          { header: 'Name', title: true, cell: (q) => q.name },
          { header: 'Leads', cell: (q) => `${q.leads_created} / ${q.total_targets}` },
          { header: 'Status', cell: (q) => STATUS_LABEL[q.status] ?? q.status },
          { header: 'Pages', cell: (q) => q.pages_fetched },
          {
            header: 'Last run',
            cell: (q) =>
              q.last_workflow_id ? (
                <Link href={`/console/sites/${site.id}/workflows/${encodeURIComponent(q.last_workflow_id)}`}>Open run</Link>
              ) : (
                <span className="empty">—</span>
              ),
          },
          { header: 'Updated', cell: (q) => <Time iso={q.updated_at} /> },
        ]}
      >
        <Pager {...queries.pager} href={pageHref(`/console/sites/${site.id}/finder`, { anchor: 'queries' })} />
      </SectionTable>
      <SectionTable
        title="Recent credit movements"
        id="ledger"
        caption="Grants, charges and refunds, newest first"
        rows={credits.ledger}
        empty="No credits granted or spent yet."
        columns={[
          { header: 'When', cell: (e) => <Time iso={e.created_at} /> },
          { header: 'Kind', cell: (e) => e.kind },
          { header: 'Call', cell: (e) => e.call_type ?? <span className="empty">—</span> },
          { header: 'Credits', cell: (e) => (e.amount > 0 ? `+${e.amount}` : e.amount) },
          { header: 'Balance after', cell: (e) => e.balance_after },
        ]}
        add={
          can(role, 'crm.write') && {
            title: 'Create a role query',
            id: 'create-query',
            form: <RoleQueryForm siteId={site.id} fields={schemaFields(createQueryBodySchema)} />,
          }
        }
      />
    </>
  );
}
