import type { Metadata } from 'next';
import Link from 'next/link';
import { count } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { can } from '@/lib/members/permissions';
import type { Sequence } from '@/lib/sequences/schema';
import { listSequences } from '@/lib/sequences/service';

export const metadata: Metadata = { title: 'Sequences · Site Growth Platform' };

const rate = (n: number, of: number) => (of > 0 ? ` (${Math.round((n / of) * 100)}%)` : '');

/** The site's outreach sequences with their figures. */
export default async function SequencesPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const sequences = await listSequences(site.id);
  const base = `/console/sites/${site.id}/sequences`;
  const writes = can(role, 'crm.write');
  const newButton = writes ? (
    <Link href={`${base}/new`} className="button primary">
      New sequence
    </Link>
  ) : undefined;
  return (
    <Card title="Sequences" id="sequences" actions={sequences.length > 0 ? newButton : undefined}>
      <DataTable<Sequence>
        caption={`Sequences of ${site.name}`}
        rows={sequences}
        rowKey={(s) => s.id}
        empty={
          <EmptyState title="No sequences yet." action={newButton}>
            A sequence writes to your leads for you: a first email, then follow-ups days later, each personalised with the lead’s name and company. It
            stops for a lead who replies, bounces or unsubscribes. Enroll a segment or the leads you pick, and watch opens, clicks and replies step by
            step.
          </EmptyState>
        }
        columns={[
          {
            header: 'Sequence',
            title: true,
            cell: (s) => (
              <>
                <Link href={`${base}/${s.id}`} className="wrap">
                  <strong>{s.name}</strong>
                </Link>{' '}
                <span className={`badge ${s.status}`}>{s.status}</span>
                <span className="sub">
                  {s.steps.length} {s.steps.length === 1 ? 'step' : 'steps'} · created <Time iso={s.created_at} />
                </span>
              </>
            ),
          },
          {
            header: 'Leads',
            cell: (s) => (
              <span data-testid="sequence-leads">
                {count(s.figures.enrolled)} enrolled
                <span className="sub">
                  {count(s.figures.active)} active · {count(s.figures.completed)} completed · {count(s.figures.stopped)} stopped
                </span>
              </span>
            ),
          },
          {
            header: 'Emails',
            cell: (s) => (
              <span data-testid="sequence-emails">
                {count(s.figures.sent)} sent
                <span className="sub">
                  {count(s.figures.opened)} opened{rate(s.figures.opened, s.figures.sent)} · {count(s.figures.clicked)} clicked
                  {rate(s.figures.clicked, s.figures.sent)}
                </span>
              </span>
            ),
          },
          {
            header: 'Outcomes',
            cell: (s) => (
              <span>
                {count(s.figures.replied)} replied{rate(s.figures.replied, s.figures.sent)}
                <span className="sub">
                  {count(s.figures.bounced)} bounced · {count(s.figures.unsubscribed)} unsubscribed
                </span>
              </span>
            ),
          },
        ]}
      />
    </Card>
  );
}
