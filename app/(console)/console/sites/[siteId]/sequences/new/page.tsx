import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { siteTimeZone } from '@/components/dates';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { can } from '@/lib/members/permissions';
import { TEMPLATE_VARIABLES } from '@/lib/sequences/template';
import { SequenceBuilder } from '../sequence-forms';

export const metadata: Metadata = { title: 'New sequence · Site Growth Platform' };

/** The builder for a new sequence. */
export default async function NewSequencePage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  if (!can(role, 'crm.write')) notFound();
  return (
    <>
      <BackLink href={`/console/sites/${site.id}/sequences`} label="All sequences" />
      <Card title="New sequence" id="new-sequence">
        <SequenceBuilder siteId={site.id} timeZone={siteTimeZone(site.settings) ?? 'UTC'} variables={[...TEMPLATE_VARIABLES]} />
      </Card>
    </>
  );
}
