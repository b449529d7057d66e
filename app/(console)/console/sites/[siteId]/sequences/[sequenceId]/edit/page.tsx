import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { siteTimeZone } from '@/components/dates';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { isUuid } from '@/lib/core/schemas';
import { can } from '@/lib/members/permissions';
import { sentStepCount } from '@/lib/sequences/history';
import { listSequences } from '@/lib/sequences/service';
import { TEMPLATE_VARIABLES } from '@/lib/sequences/template';
import { SequenceBuilder } from '../../sequence-forms';

export const metadata: Metadata = { title: 'Edit sequence · Site Growth Platform' };

/** The builder over a saved sequence: the steps leads received already stay as they are. */
export default async function EditSequencePage({ params }: { params: Promise<{ siteId: string; sequenceId: string }> }) {
  const { siteId, sequenceId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  if (!can(role, 'crm.write') || !isUuid(sequenceId)) notFound();
  const sequence = (await listSequences(site.id)).find((s) => s.id === sequenceId.toLowerCase());
  if (!sequence) notFound();
  const locked = await sentStepCount(site.id, sequence.id);
  return (
    <>
      <BackLink href={`/console/sites/${site.id}/sequences/${sequence.id}`} label={sequence.name} />
      <Card title={`Edit ${sequence.name}`} id="edit-sequence">
        {locked > 0 && (
          <p className="notice">
            {locked === 1 ? 'Step 1 went' : `Steps 1–${locked} went`} out to leads already and can no longer change; later steps can change, be added
            or be removed.
          </p>
        )}
        <SequenceBuilder
          siteId={site.id}
          sequence={sequence}
          locked={locked}
          timeZone={siteTimeZone(site.settings) ?? 'UTC'}
          variables={[...TEMPLATE_VARIABLES]}
        />
      </Card>
    </>
  );
}
