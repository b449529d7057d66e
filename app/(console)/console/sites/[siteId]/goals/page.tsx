import type { Metadata } from 'next';
import Link from 'next/link';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SectionTable } from '@/components/kit/section-table';
import { listGoals } from '@/lib/analytics/goals';
import type { Goal } from '@/lib/analytics/goals-schema';
import { can } from '@/lib/members/permissions';
import { AddGoalForm } from './add-goal-form';
import { DeleteGoalButton } from './delete-goal-button';

export const metadata: Metadata = { title: 'Goals · Site Growth Platform' };

const REACHED_BY: Record<Goal['type'], string> = { conversion: 'Conversion named', event: 'Event named', page: 'Page view of' };

/** The site's goals: what counts as reaching each; the Overview lists them with conversions, conversion rate and revenue. */
export default async function GoalsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const manages = can(role, 'settings.manage');
  const { goals } = await listGoals(site.id);
  return (
    <SectionTable
      title="Goals"
      id="goals"
      intro={
        <>
          A goal is what a visit should lead to: a purchase, a sign-up, a thank-you page. The{' '}
          <Link href={`/console/sites/${site.id}#list-goals`}>Overview</Link> shows how many visits reached each, the conversion rate and the revenue
          of conversions that carry one (<code>properties.revenue {'{ amount, currency }'}</code>), and filters the whole dashboard by a goal when you
          click it.
        </>
      }
      caption={`Goals of ${site.name}`}
      rows={goals}
      empty="No goals yet: add the first one below."
      columns={[
        { header: 'Name', cell: (g) => g.name },
        {
          header: 'Reached by',
          cell: (g) => (
            <>
              {REACHED_BY[g.type]} <span className="mono">{g.match}</span>
            </>
          ),
        },
      ]}
      rowActions={(g) => manages && <DeleteGoalButton siteId={site.id} goalId={g.id} name={g.name} />}
      add={manages && { title: 'Add a goal', id: 'add-goal', form: <AddGoalForm siteId={site.id} /> }}
    />
  );
}
