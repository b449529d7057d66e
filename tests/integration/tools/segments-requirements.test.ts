import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listRequirementsRoute } from '@/app/api/requirements/route';
import { createRequirementTool, getRequirementsTool, updateRequirementTool } from '@/lib/tools/requirements';
import { createSegmentTool, getSegmentsTool, updateSegmentTool } from '@/lib/tools/segments';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant } from '@/tests/helpers/harness';
import { suiteTenants } from '@/tests/helpers/tenants';
import { viaRest } from '@/tests/helpers/tools';

const [mine, other] = suiteTenants(2);
let auth: Record<string, string>;
beforeAll(() => {
  auth = presenters.bearer(mine.key);
});

describe('segments', () => {
  it('creates a segment with the documented types and defaults', async () => {
    const res = await viaRest(createSegmentTool, auth, {
      site_id: mine.siteId,
      name: 'EU SMB',
      size: 1200,
      estimated_value: 5000.5,
      language: 'es-MX',
      attributes: { region: 'EU', employees: [10, 50] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      segment: {
        segment_id: expect.any(String),
        site_id: mine.siteId,
        name: 'EU SMB',
        description: null,
        audience: null,
        size: 1200,
        estimated_value: 5000.5,
        language: 'es-MX',
        is_active: true,
        attributes: { region: 'EU', employees: [10, 50] },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const listed = await viaRest(getSegmentsTool, auth, { site_id: mine.siteId, segment_id: res.body.segment.segment_id });
    expect(listed.body).toMatchObject({ total: 1, segments: [res.body.segment] });
  });

  it('updates only the given fields; null clears; another site’s segment is a 404', async () => {
    const created = await viaRest(createSegmentTool, auth, { site_id: mine.siteId, name: 'Old', audience: 'CTOs', size: 5 });
    const id = created.body.segment.segment_id;
    const res = await viaRest(updateSegmentTool, auth, { site_id: mine.siteId, segment_id: id, name: 'New', size: null, is_active: false });
    expect(res.body.segment).toMatchObject({ name: 'New', audience: 'CTOs', size: null, is_active: false });
    const foreign = await viaRest(updateSegmentTool, presenters.bearer(other.key), { site_id: other.siteId, segment_id: id, name: 'Hijacked' });
    expect(foreign.status).toBe(404);
    expect((await viaRest(getSegmentsTool, auth, { site_id: mine.siteId, segment_id: id })).body.segments[0].name).toBe('New');
  });

  it('lists only the site’s segments, newest first, filtered by is_active', async () => {
    const t = await createTenant();
    const k = presenters.bearer(t.key);
    for (const name of ['a', 'b', 'c']) await viaRest(createSegmentTool, k, { site_id: t.siteId, name, is_active: name !== 'b' });
    const all = await viaRest(getSegmentsTool, k, { site_id: t.siteId, limit: 2 });
    expect(all.body).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true });
    expect(all.body.segments.map((s: { name: string }) => s.name)).toEqual(['c', 'b']);
    const active = await viaRest(getSegmentsTool, k, { site_id: t.siteId, is_active: true });
    expect(active.body.segments.map((s: { name: string }) => s.name)).toEqual(['c', 'a']);
  });
});

describe('requirements', () => {
  it('creates with defaults and the spec enums; budget is an integer token cap', async () => {
    const res = await viaRest(createRequirementTool, auth, { site_id: mine.siteId, title: 'Launch campaign', budget: 100_000 });
    expect(res.status).toBe(201);
    expect(res.body.requirement).toEqual({
      requirement_id: expect.any(String),
      site_id: mine.siteId,
      title: 'Launch campaign',
      type: null,
      priority: 'medium',
      status: 'backlog',
      completion_status: 'pending',
      instructions: null,
      budget: 100_000,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('moves through statuses and completion statuses; another site’s requirement is a 404', async () => {
    const created = await viaRest(createRequirementTool, auth, { site_id: mine.siteId, title: 'Audit', instructions: 'External deliverable' });
    const id = created.body.requirement.requirement_id;
    for (const status of ['validated', 'in-progress', 'on-review', 'done']) {
      const res = await viaRest(updateRequirementTool, auth, { site_id: mine.siteId, requirement_id: id, status });
      expect(res.body.requirement.status).toBe(status);
    }
    const done = await viaRest(updateRequirementTool, auth, { site_id: mine.siteId, requirement_id: id, completion_status: 'completed' });
    expect(done.body.requirement).toMatchObject({ status: 'done', completion_status: 'completed', instructions: 'External deliverable' });
    for (const requirementId of [id, randomUUID()]) {
      const res = await viaRest(updateRequirementTool, presenters.bearer(other.key), {
        site_id: other.siteId,
        requirement_id: requirementId,
        status: 'canceled',
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Requirement not found' });
    }
  });
});

describe('GET /api/requirements?site_id=', () => {
  const get = (headers: Record<string, string>, query: Record<string, string | number | undefined>) =>
    call(listRequirementsRoute, { path: '/api/requirements', headers, query });

  for (const [label, present] of [
    ['Bearer', presenters.bearer],
    ['x-api-key', presenters.xApiKey],
  ] as const) {
    describe(label, () => {
      authMatrix({ tenants: () => ({ mine, other }), present, write: false, send: (headers, siteId) => get(headers, { site_id: siteId }) });
    });
  }

  it('answers what the requirements/get tool answers', async () => {
    const t = await createTenant();
    for (const title of ['one', 'two', 'three'])
      await viaRest(createRequirementTool, presenters.bearer(t.key), { site_id: t.siteId, title, priority: title === 'two' ? 'high' : 'low' });
    const route = await get(presenters.xApiKey(t.readKey), { site_id: t.siteId, priority: 'low', limit: 1 });
    const tool = await viaRest(getRequirementsTool, presenters.bearer(t.readKey), { site_id: t.siteId, priority: 'low', limit: 1 });
    expect(route.status).toBe(200);
    expect(route.body).toEqual(tool.body);
    expect(route.body).toMatchObject({ total: 2, limit: 1, has_more: true });
  });

  it('requires site_id and validates the filters', async () => {
    expect((await get(presenters.bearer(mine.key), {})).status).toBe(400);
    expect((await get(presenters.bearer(mine.key), { site_id: mine.siteId, limit: 501 })).status).toBe(400);
    expect((await get(presenters.bearer(mine.key), { site_id: mine.siteId, status: 'doing' })).status).toBe(400);
  });
});
