import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE as unenrollRoute } from '@/app/api/sequences/[id]/enrollments/[lead_id]/route';
import { GET as getRoute, PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { sequenceEnrollmentJob, sequenceStep } from '@/lib/sequences/jobs';
import { runStep } from '@/lib/sequences/send';
import { localDay } from '@/lib/sequences/window';
import { updateSettings } from '@/lib/settings/service';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';
import { auth, createLead, createSequence, enrollLeads, ownAddress, setLeadStatus } from './calls';

/**
 * How an enrollment's schedule holds up: a step that cannot be sent after every retry ends the
 * enrollment `failed` with its reason; a lead whose status the sequence stops on reads stopped at
 * once; the daily cap counts the site's day in its time zone; a changed delay moves the step
 * already scheduled.
 */
const setClock = testClock();
const smtp = useSmtpStandIn();
let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
});

/** A lead at a domain of its own; the stand-in refuses addresses whose local part starts with `refuse`. */
const lead = (name: string, local = 'lead') => createLead(t, name, { email: ownAddress(local) });

const STEPS = [
  { delay_minutes: 0, subject: 'Hi {{first_name}}', body: 'Hello.' },
  { delay_minutes: 60, subject: 'Following up', body: 'Any thoughts?' },
];
const sequence = async (extra: Record<string, unknown> = {}) => (await createSequence(t, { name: 'Schedule', steps: STEPS, ...extra })).id;
const enroll = (id: string, leadIds: string[]) => enrollLeads(t, id, leadIds);
const detail = async (id: string, query: Record<string, string> = {}) =>
  (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId, ...query } })).body.data;
const enrollmentRow = async (id: string) => (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id)))[0];
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
const ctx = (attempt: number) => ({ id: 'job', attempt, retryLimit: 5, signal: new AbortController().signal });

describe('an enrollment whose step cannot be sent', () => {
  it('ends failed with the reason once the last attempt fails, not before', async () => {
    const id = await sequence();
    const refused = await lead('Rita Refused', 'refuse');
    setClock(Date.UTC(2026, 11, 7, 10, 0));
    const [e] = await enroll(id, [refused.id]);
    const data = { siteId: t.siteId, enrollmentId: e.id, step: 0 };
    await expect(sequenceStep.run(data, ctx(0))).rejects.toThrow();
    expect(await enrollmentRow(e.id)).toMatchObject({ status: 'active', failure: null });
    await expect(sequenceStep.run(data, ctx(5))).rejects.toThrow();
    const d = await detail(id);
    const shown = d.enrollments.find((x: { id: string }) => x.id === e.id);
    expect(shown).toMatchObject({ status: 'failed', next_send_at: null });
    expect(shown.failure).toMatch(/^Step 1 was not sent after 6 attempts: /);
    expect(d.figures).toMatchObject({ enrolled: 1, failed: 1, active: 0, sent: 0 });
    // Nothing claimed is left behind: the step was never sent.
    expect(await (await getDb()).select().from(sequenceMessages).where(eq(sequenceMessages.enrollmentId, e.id))).toEqual([]);
    expect((await detail(id, { enrollment_status: 'failed' })).enrollments_total).toBe(1);
  });

  it('ends failed when its attempts ran out by workers that died', async () => {
    const id = await sequence();
    const ada = await lead('Ada Lovelace');
    const [e] = await enroll(id, [ada.id]);
    await sequenceStep.exhausted!({ siteId: t.siteId, enrollmentId: e.id, step: 0 }, 'its attempts ran out');
    const row = await enrollmentRow(e.id);
    expect(row.status).toBe('failed');
    expect(row.failure).toMatch(/^Step 1 was not sent: /);
  });

  it('ends failed when the workflow engine could not be reached to start or wake its workflow (Temporal)', async () => {
    const id = await sequence();
    const ada = await lead('Ada Lovelace');
    const [e] = await enroll(id, [ada.id]);
    const job = sequenceEnrollmentJob(async () => {
      throw new Error('unreachable');
    });
    await expect(job.run({ siteId: t.siteId, enrollmentId: e.id }, ctx(0))).rejects.toThrow('unreachable');
    expect(await enrollmentRow(e.id)).toMatchObject({ status: 'active' });
    await job.exhausted!({ siteId: t.siteId, enrollmentId: e.id }, 'its attempts ran out');
    expect(await enrollmentRow(e.id)).toMatchObject({ status: 'failed', failure: 'Step 1 was not sent: the workflow engine could not be reached' });
  });
});

describe('a lead whose status the sequence stops on', () => {
  it('reads stopped at once, before its next step is due, and is stopped for good when it is', async () => {
    setClock(Date.UTC(2026, 11, 7, 10, 0));
    const id = await sequence({ stop_on_status: ['converted'] });
    const [won, other] = await Promise.all([lead('Won Deal'), lead('Other Lead')]);
    const [ew, eo] = await enroll(id, [won.id, other.id]);
    await runStep(t.siteId, ew.id, 0);
    await runStep(t.siteId, eo.id, 0);
    await setLeadStatus(t, won.id, 'converted');

    const d = await detail(id);
    const shown = d.enrollments.find((x: { id: string }) => x.id === ew.id);
    expect(shown).toMatchObject({ status: 'stopped', stop_reason: 'converted', next_send_at: null });
    expect(shown.stopped_at).not.toBeNull();
    expect(d.enrollments.find((x: { id: string }) => x.id === eo.id)).toMatchObject({ status: 'active' });
    expect(d.figures).toMatchObject({ active: 1, stopped: 1 });
    expect(d.step_figures[1].waiting).toBe(1);
    expect((await detail(id, { enrollment_status: 'stopped' })).enrollments.map((x: { id: string }) => x.id)).toEqual([ew.id]);
    // Removing it now leaves it as it reads.
    const removed = await call(unenrollRoute, {
      method: 'DELETE',
      path: `/api/sequences/${id}/enrollments/${won.id}`,
      params: { id, lead_id: won.id },
      headers: auth(t),
      query: { site_id: t.siteId },
    });
    expect(removed.body.data).toMatchObject({ status: 'stopped', stop_reason: 'converted' });

    setClock(Date.UTC(2026, 11, 7, 11, 1));
    await runStep(t.siteId, ew.id, 1);
    expect(mailsTo(won.email)).toHaveLength(1);
    expect(await enrollmentRow(ew.id)).toMatchObject({ status: 'stopped', stopReason: 'converted' });
  });
});

describe('the daily cap', () => {
  it("counts the site's day in its time zone", async () => {
    expect(localDay(Date.UTC(2026, 11, 15, 16, 0), 'Asia/Tokyo')).toEqual({
      start: Date.UTC(2026, 11, 15, 15, 0),
      end: Date.UTC(2026, 11, 16, 15, 0),
    });
    // A day of a daylight-saving change is 23 hours long (New York, 2026-03-08).
    const spring = localDay(Date.UTC(2026, 2, 8, 18, 0), 'America/New_York');
    expect(spring).toEqual({ start: Date.UTC(2026, 2, 8, 5, 0), end: Date.UTC(2026, 2, 9, 4, 0) });

    const own = await createTenant();
    const saved = t;
    t = own;
    try {
      await updateSettings(t.siteId, { business_hours: { timezone: 'Asia/Tokyo' } });
      const id = await sequence({ daily_cap: 1 });
      const [a, b, c] = await Promise.all([lead('Ann'), lead('Bob'), lead('Cy')]);
      const [ea, eb, ec] = await enroll(id, [a.id, b.id, c.id]);
      // 23:00 in Tokyo on the 15th: Ann's message is that day's one.
      setClock(Date.UTC(2026, 11, 15, 14, 0));
      await runStep(t.siteId, ea.id, 0);
      // 01:00 in Tokyo on the 16th (the same UTC day): a new day of the site, Bob's goes.
      setClock(Date.UTC(2026, 11, 15, 16, 0));
      await runStep(t.siteId, eb.id, 0);
      await runStep(t.siteId, ec.id, 0);
      expect([a, b, c].map((l) => mailsTo(l.email).length)).toEqual([1, 1, 0]);
      // Cy waits for the next midnight in Tokyo.
      expect((await enrollmentRow(ec.id)).nextSendAt!.toISOString()).toBe('2026-12-16T15:00:00.000Z');
    } finally {
      t = saved;
    }
  });
});

describe('a changed delay', () => {
  it('moves the step already scheduled, earlier or later', async () => {
    const start = Date.UTC(2026, 11, 8, 10, 0);
    setClock(start);
    const id = await sequence();
    const [ada, bob] = await Promise.all([lead('Ada Lovelace'), lead('Bob Builder')]);
    const [ea] = await enroll(id, [ada.id]);
    await runStep(t.siteId, ea.id, 0);
    expect((await enrollmentRow(ea.id)).nextSendAt!.getTime()).toBe(start + 60 * 60_000);

    const patch = (steps: unknown[]) =>
      call(patchRoute, { method: 'PATCH', path: `/api/sequences/${id}`, params: { id }, headers: auth(t), body: { site_id: t.siteId, steps } });
    // Step 2 now 10 minutes after step 1: due 10 minutes after Ada's first message went.
    expect((await patch([STEPS[0], { ...STEPS[1], delay_minutes: 10 }])).status).toBe(200);
    expect((await enrollmentRow(ea.id)).nextSendAt!.getTime()).toBe(start + 10 * 60_000);
    setClock(start + 11 * 60_000);
    await runStep(t.siteId, ea.id, 1);
    expect(mailsTo(ada.email)).toHaveLength(2);

    // A later first step: Bob, enrolled but not yet sent to, waits the new delay after his enrollment.
    const fresh = await sequence({ steps: [{ ...STEPS[0], delay_minutes: 5 }, STEPS[1]] });
    const [eb] = await enroll(fresh, [bob.id]);
    const enrolledAt = start + 11 * 60_000;
    expect((await enrollmentRow(eb.id)).nextSendAt!.getTime()).toBe(enrolledAt + 5 * 60_000);
    const later = await call(patchRoute, {
      method: 'PATCH',
      path: `/api/sequences/${fresh}`,
      params: { id: fresh },
      headers: auth(t),
      body: { site_id: t.siteId, steps: [{ ...STEPS[0], delay_minutes: 120 }, STEPS[1]] },
    });
    expect(later.status).toBe(200);
    expect((await enrollmentRow(eb.id)).nextSendAt!.getTime()).toBe(enrolledAt + 120 * 60_000);
    // The job queued for the old time does nothing.
    setClock(enrolledAt + 6 * 60_000);
    await runStep(t.siteId, eb.id, 0);
    expect(mailsTo(bob.email)).toHaveLength(0);
    setClock(enrolledAt + 121 * 60_000);
    await runStep(t.siteId, eb.id, 0);
    expect(mailsTo(bob.email)).toHaveLength(1);
  });
});
