import type { Metadata } from 'next';
import Link from 'next/link';
import { listRoleQueries } from '@/lib/finder/repo';
import { creditsOverview } from '@/lib/finder/service';
import { createQueryBodySchema } from '@/lib/finder/schema';
import { Card } from '@/components/kit/card';
import { Time } from '@/components/time';
import { schemaFields } from '../../../../_lib/schema-form';
import { RoleQueryForm } from './role-query-form';
import { requireOwnedSite } from '../../../../_lib/session';

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
export default async function FinderPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const [credits, queries] = await Promise.all([creditsOverview(site.id, 20), listRoleQueries(site.id, { limit: 50 })]);
  return (
    <>
      <section className="card" aria-labelledby="credits-heading">
        <h2 id="credits-heading">Finder credits</h2>
        <p>
          Balance: <strong data-testid="finder-balance">{credits.balance.toLocaleString('en')}</strong> credits. Spent in {credits.month}:{' '}
          {credits.spent_this_month.toLocaleString('en')}
          {credits.monthly_cap !== null ? ` of a ${credits.monthly_cap.toLocaleString('en')} monthly cap` : ' (no monthly cap)'}.
        </p>
        <p className="hint">
          People searches, contact lookups and lead mining are paid from these credits, and only when the provider answers. Your operator grants
          credits. Prices: {Object.entries(credits.prices).map(([type, price], i) => `${i ? ', ' : ''}${type} ${price}`)}.
        </p>
      </section>
      <section className="card" aria-labelledby="queries-heading">
        <h2 id="queries-heading">Role queries</h2>
        {queries.length === 0 ? (
          <p className="empty">No role queries yet. Create one below; mining starts at once.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Role queries and their mining progress</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Leads</th>
                  <th scope="col">Status</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Last run</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {queries.map((q) => (
                  <tr key={q.id}>
                    <th scope="row">{q.name}</th>
                    <td data-label="Name">
                      {q.leads_created} / {q.total_targets}
                    </td>
                    <td data-label="Leads">{STATUS_LABEL[q.status] ?? q.status}</td>
                    <td data-label="Status">{q.pages_fetched}</td>
                    <td data-label="Pages">
                      {q.last_workflow_id ? (
                        <Link href={`/console/sites/${site.id}/workflows/${encodeURIComponent(q.last_workflow_id)}`}>Open run</Link>
                      ) : (
                        <span className="empty">—</span>
                      )}
                    </td>
                    <td data-label="Last run">
                      <Time iso={q.updated_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="ledger-heading">
        <h2 id="ledger-heading">Recent credit movements</h2>
        {credits.ledger.length === 0 ? (
          <p className="empty">No credits granted or spent yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Grants, charges and refunds, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Call</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Balance after</th>
                </tr>
              </thead>
              <tbody>
                {credits.ledger.map((e) => (
                  <tr key={e.id}>
                    <td data-label="When">
                      <Time iso={e.created_at} />
                    </td>
                    <td data-label="Kind">{e.kind}</td>
                    <td data-label="Call">{e.call_type ?? <span className="empty">—</span>}</td>
                    <td data-label="Credits">{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
                    <td data-label="Balance after">{e.balance_after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Card
        title="Create a role query"
        id="create-query"
        actions={
          <span className="as-code">
            as code: <code>POST /api/finder/person_role_search/createQuery</code>
          </span>
        }
      >
        <RoleQueryForm siteId={site.id} fields={schemaFields(createQueryBodySchema)} />
      </Card>
    </>
  );
}
