import { describe, expect, it } from 'vitest';
import { createLead, findLead } from '@/lib/leads/repo';
import { createSegment, deleteSegment, listSegments, segmentLeadCounts } from '@/lib/segments/service';
import { createTenant } from '@/tests/helpers/harness';

describe('a segment in the console', () => {
  it('is as large as the leads in it; deleting it keeps them, without a segment; another site cannot touch it', async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const eu = await createSegment(t.siteId, { site_id: t.siteId, name: 'EU' });
    const empty = await createSegment(t.siteId, { site_id: t.siteId, name: 'Empty', size: 500 });
    const leads = [];
    for (const n of [1, 2, 3]) {
      leads.push(
        await createLead(t.siteId, {
          site_id: t.siteId,
          name: `Lead ${n}`,
          status: 'new',
          email: `l${n}@shop.example`,
          segment_id: n < 3 ? eu.segment_id : undefined,
        }),
      );
    }
    const counts = await segmentLeadCounts(t.siteId, [eu.segment_id, empty.segment_id]);
    expect(Object.fromEntries(counts)).toEqual({ [eu.segment_id]: 2, [empty.segment_id]: 0 });
    // Counted on the site only: another site's id gives nothing.
    expect(Object.fromEntries(await segmentLeadCounts(other.siteId, [eu.segment_id]))).toEqual({ [eu.segment_id]: 0 });

    await expect(deleteSegment(other.siteId, eu.segment_id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await deleteSegment(t.siteId, eu.segment_id)).toEqual({ name: 'EU' });
    await expect(deleteSegment(t.siteId, eu.segment_id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const left = await listSegments(t.siteId, { site_id: t.siteId, limit: 50, offset: 0 });
    expect(left.items.map((s) => s.name)).toEqual(['Empty']);
    for (const lead of leads) expect((await findLead(t.siteId, lead.id))?.segmentId).toBeNull();
  });
});
