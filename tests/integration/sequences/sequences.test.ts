import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as createSegmentRoute } from '@/app/api/agents/tools/segments/create/route';
import { DELETE as unenrollRoute } from '@/app/api/sequences/[id]/enrollments/[lead_id]/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { GET as getRoute, PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/sequences/route';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments, sequenceMessages, sequences } from '@/lib/db/schema';
import { suppress } from '@/lib/email/repo';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';

/**
 * Sequences through their routes on a real database: templates checked when saved, figures,
 * enrollment once per lead (suppressed and ineligible leads skipped and counted), removal, pause,
 * and another site's objects answering 404 with nothing changed.
 */
const auth = (t: Tenant, key = t.key) => ({ authorization: `Bearer ${key}` });
const STEPS = [
  { delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello {{first_name|there}} at {{company|your company}}.' },
  { delay_minutes: 3 * 24 * 60, subject: 'Following up', subject_variants: ['Still there, {{first_name}}?'], body: 'Any thoughts?' },
];

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

async function createSequence(t: Tenant, extra: Record<string, unknown> = {}) {
  const res = await call(createRoute, {
    method: 'POST',
    path: '/api/sequences',
    headers: auth(t),
    body: { site_id: t.siteId, name: 'Welcome', steps: STEPS, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; figures: Record<string, number> };
}

async function createLead(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: auth(t),
    body: { site_id: t.siteId, name: 'Ada Lovelace', email: uniqueEmail(), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead as { id: string; email: string };
}

const enroll = (t: Tenant, id: string, body: Record<string, unknown>) =>
  call(enrollRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments`,
    params: { id },
    headers: auth(t),
    body: { site_id: t.siteId, ...body },
  });
const detail = (t: Tenant, id: string, query: Record<string, string> = {}) =>
  call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t, t.readKey), query: { site_id: t.siteId, ...query } });
const patch = (t: Tenant, id: string, body: Record<string, unknown>) =>
  call(patchRoute, { method: 'PATCH', path: `/api/sequences/${id}`, params: { id }, headers: auth(t), body: { site_id: t.siteId, ...body } });

describe('saving a sequence', () => {
  it('stores the steps and options and lists it with zero figures', async () => {
    const created = await createSequence(mine, {
      send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 },
      daily_cap: 50,
      stop_on_status: ['converted'],
    });
    expect(created).toMatchObject({
      name: 'Welcome',
      status: 'active',
      steps: STEPS,
      send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 },
      daily_cap: 50,
      domain_per_minute: null,
      stop_on_status: ['converted'],
      figures: { enrolled: 0, active: 0, completed: 0, stopped: 0, sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0, unsubscribed: 0 },
    });
    const list = await call(listRoute, { path: '/api/sequences', headers: auth(mine, mine.readKey), query: { site_id: mine.siteId } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(created.id);
    const theirs = await call(listRoute, { path: '/api/sequences', headers: auth(other), query: { site_id: other.siteId } });
    expect(theirs.body.data.map((s: { id: string }) => s.id)).not.toContain(created.id);
  });

  it.each([
    ['an unknown variable in a subject', { subject: 'Hi {{frist_name}}' }, 'body.steps.0.subject', 'Unknown variable {{frist_name}}'],
    ['an unknown variable in a body', { body: 'Hello {{ nickname | friend }}' }, 'body.steps.0.body', 'Unknown variable {{nickname}}'],
    ['an unclosed variable', { body: 'Hello {{first_name' }, 'body.steps.0.body', 'Unclosed'],
    ['an empty subject', { subject: '   ' }, 'body.steps.0.subject', 'empty'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, change, path, message) => {
    const db = await getDb();
    const before = await db.select().from(sequences).where(eq(sequences.siteId, mine.siteId));
    const res = await call(createRoute, {
      method: 'POST',
      path: '/api/sequences',
      headers: auth(mine),
      body: { site_id: mine.siteId, name: 'Broken', steps: [{ ...STEPS[0], ...change }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST', details: { issues: [expect.objectContaining({ path })] } } });
    expect(JSON.stringify(res.body.error.details)).toContain(message);
    expect(await db.select().from(sequences).where(eq(sequences.siteId, mine.siteId))).toHaveLength(before.length);
  });

  it('refuses a send window that ends before it starts, and a read-only key', async () => {
    const bad = await call(createRoute, {
      method: 'POST',
      path: '/api/sequences',
      headers: auth(mine),
      body: { site_id: mine.siteId, name: 'x', steps: STEPS, send_window: { days: [1], start_hour: 17, end_hour: 9 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toBe('body.send_window.end_hour');
    const readOnly = await call(createRoute, {
      method: 'POST',
      path: '/api/sequences',
      headers: auth(mine, mine.readKey),
      body: { site_id: mine.siteId, name: 'x', steps: STEPS },
    });
    expect(readOnly.status).toBe(403);
  });
});

describe('enrollment', () => {
  it('enrolls each lead once; suppressed and ineligible leads are skipped and counted', async () => {
    const seq = await createSequence(mine, { stop_on_status: ['converted'] });
    const [ada, grace, suppressed, converted] = await Promise.all([
      createLead(mine),
      createLead(mine, { name: 'Grace' }),
      createLead(mine),
      createLead(mine),
    ]);
    await suppress(mine.siteId, suppressed.email.toLowerCase(), 'unsubscribed');
    const db = await getDb();
    const { leads } = await import('@/lib/db/schema');
    await db.update(leads).set({ status: 'converted' }).where(eq(leads.id, converted.id));

    const first = await enroll(mine, seq.id, { lead_ids: [ada.id, suppressed.id, converted.id] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ enrolled: 1, already_enrolled: 0, suppressed: 1, ineligible: 1 });
    expect(first.body.data.enrollments).toEqual([expect.objectContaining({ lead_id: ada.id, status: 'active', next_step: 0, stop_reason: null })]);

    const again = await enroll(mine, seq.id, { lead_ids: [ada.id, grace.id, ada.id] });
    expect(again.body.data).toMatchObject({ enrolled: 1, already_enrolled: 1, suppressed: 0, ineligible: 0 });

    const rows = await db.select().from(sequenceEnrollments).where(eq(sequenceEnrollments.sequenceId, seq.id));
    expect(rows.map((r) => r.leadId).sort()).toEqual([ada.id, grace.id].sort());

    const got = await detail(mine, seq.id);
    expect(got.status).toBe(200);
    expect(got.body.data.figures).toMatchObject({ enrolled: 2, active: 2, completed: 0, stopped: 0, sent: 0 });
    expect(got.body.data.step_figures).toEqual([
      expect.objectContaining({
        step: 0,
        waiting: 2,
        sent: 0,
        variants: [expect.objectContaining({ variant: 0, subject: STEPS[0].subject, sent: 0 })],
      }),
      expect.objectContaining({
        step: 1,
        waiting: 0,
        variants: [
          expect.objectContaining({ variant: 0, subject: 'Following up' }),
          expect.objectContaining({ variant: 1, subject: 'Still there, {{first_name}}?' }),
        ],
      }),
    ]);
    expect(got.body.data.enrollments_total).toBe(2);
    expect(got.body.data.enrollments[0].next_send_at).toEqual(expect.any(String));
  });

  it("enrolls a segment's leads", async () => {
    const seq = await createSequence(mine);
    const segment = await call(createSegmentRoute, {
      method: 'POST',
      path: '/api/agents/tools/segments/create',
      headers: auth(mine),
      body: { site_id: mine.siteId, name: 'SMB' },
    });
    const segmentId = segment.body.segment.segment_id as string;
    const [a, b] = await Promise.all([createLead(mine, { segment_id: segmentId }), createLead(mine, { segment_id: segmentId }), createLead(mine)]);
    const res = await enroll(mine, seq.id, { segment_id: segmentId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.enrolled).toBe(2);
    expect(res.body.data.enrollments.map((e: { lead_id: string }) => e.lead_id).sort()).toEqual([a.id, b.id].sort());
  });

  it('refuses both lead_ids and segment_id, or neither', async () => {
    const seq = await createSequence(mine);
    const lead = await createLead(mine);
    for (const body of [{}, { lead_ids: [lead.id], segment_id: lead.id }]) {
      const res = await enroll(mine, seq.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
  });

  it("answers 404 for another site's lead, segment or sequence, and changes nothing", async () => {
    const seq = await createSequence(mine);
    const theirSeq = await createSequence(other);
    const [lead, theirLead] = await Promise.all([createLead(mine), createLead(other)]);
    const theirSegment = await call(createSegmentRoute, {
      method: 'POST',
      path: '/api/agents/tools/segments/create',
      headers: auth(other),
      body: { site_id: other.siteId, name: 'Theirs' },
    });
    const cases = [
      await enroll(mine, seq.id, { lead_ids: [lead.id, theirLead.id] }),
      await enroll(mine, seq.id, { segment_id: theirSegment.body.segment.segment_id }),
      await enroll(mine, theirSeq.id, { lead_ids: [lead.id] }),
      await detail(mine, theirSeq.id),
      await patch(mine, theirSeq.id, { status: 'paused' }),
      await call(unenrollRoute, {
        method: 'DELETE',
        path: `/api/sequences/${seq.id}/enrollments/${theirLead.id}`,
        params: { id: seq.id, lead_id: theirLead.id },
        headers: auth(mine),
        query: { site_id: mine.siteId },
      }),
    ];
    for (const res of cases) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    const db = await getDb();
    expect(await db.select().from(sequenceEnrollments).where(eq(sequenceEnrollments.sequenceId, seq.id))).toEqual([]);
    const [theirs] = await db.select().from(sequences).where(eq(sequences.id, theirSeq.id));
    expect(theirs.status).toBe('active');
  });

  it('removes a lead: the enrollment stops and stays listed; the lead cannot be enrolled again', async () => {
    const seq = await createSequence(mine);
    const lead = await createLead(mine);
    await enroll(mine, seq.id, { lead_ids: [lead.id] });
    const remove = () =>
      call(unenrollRoute, {
        method: 'DELETE',
        path: `/api/sequences/${seq.id}/enrollments/${lead.id}`,
        params: { id: seq.id, lead_id: lead.id },
        headers: auth(mine),
        query: { site_id: mine.siteId },
      });
    const res = await remove();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ lead_id: lead.id, status: 'stopped', stop_reason: 'removed', next_send_at: null });
    expect((await remove()).body.data).toMatchObject({ status: 'stopped', stop_reason: 'removed' });
    expect((await enroll(mine, seq.id, { lead_ids: [lead.id] })).body.data).toMatchObject({ enrolled: 0, already_enrolled: 1 });
    expect((await detail(mine, seq.id, { enrollment_status: 'stopped' })).body.data).toMatchObject({
      figures: { enrolled: 1, stopped: 1, active: 0 },
      enrollments_total: 1,
    });
    const never = await createLead(mine);
    const missing = await call(unenrollRoute, {
      method: 'DELETE',
      path: `/api/sequences/${seq.id}/enrollments/${never.id}`,
      params: { id: seq.id, lead_id: never.id },
      headers: auth(mine),
      query: { site_id: mine.siteId },
    });
    expect(missing.status).toBe(404);
  });
});

describe('changing a sequence', () => {
  it('pauses and resumes, and changes options', async () => {
    const seq = await createSequence(mine);
    const paused = await patch(mine, seq.id, { status: 'paused', daily_cap: 10, send_window: { days: [6, 7], start_hour: 10, end_hour: 12 } });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data).toMatchObject({
      status: 'paused',
      daily_cap: 10,
      send_window: { days: [6, 7], start_hour: 10, end_hour: 12 },
      name: 'Welcome',
    });
    const resumed = await patch(mine, seq.id, { status: 'active', send_window: null, daily_cap: null });
    expect(resumed.body.data).toMatchObject({ status: 'active', send_window: null, daily_cap: null });
  });

  it('keeps the steps already sent: changing one is 409, changing a later one is saved', async () => {
    const seq = await createSequence(mine);
    const lead = await createLead(mine);
    const enrolled = await enroll(mine, seq.id, { lead_ids: [lead.id] });
    // Step 0 went out to the lead.
    const db = await getDb();
    await db
      .insert(sequenceMessages)
      .values({ siteId: mine.siteId, sequenceId: seq.id, enrollmentId: enrolled.body.data.enrollments[0].id, step: 0, status: 'sent' });

    const changed = await patch(mine, seq.id, { steps: [{ ...STEPS[0], subject: 'New subject' }, STEPS[1]] });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ success: false, error: { code: 'CONFLICT', message: expect.stringContaining('steps.0') } });
    const dropped = await patch(mine, seq.id, { steps: [] });
    expect(dropped.status).toBe(400);

    const later = await patch(mine, seq.id, {
      steps: [STEPS[0], { ...STEPS[1], body: 'A new follow-up.' }, { delay_minutes: 60, subject: 'Last one', body: 'Bye {{first_name|there}}' }],
    });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data.steps).toHaveLength(3);
    const [row] = await db
      .select()
      .from(sequences)
      .where(and(eq(sequences.siteId, mine.siteId), eq(sequences.id, seq.id)));
    expect((row.steps as { body: string }[])[1].body).toBe('A new follow-up.');
  });
});
