import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { GET as getRoute, PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { POST as createRoute } from '@/app/api/sequences/route';
import { resetConfig } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { leads, sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { suppress } from '@/lib/email/repo';
import { runStep } from '@/lib/sequences/send';
import { updateSettings } from '@/lib/settings/service';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';

/**
 * Sequences sending through the SMTP transport to a real SMTP server (the `smtp-server` stand-in):
 * the worker sends the first step of each enrollment, personalised; later steps, the send window,
 * the daily cap, the domain throttle and the stops are driven step by step under a test clock
 * (`runStep` is what the step's job runs), never by waiting.
 */
const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });
const setClock = testClock();
let smtp: SmtpStandIn;
let t: Tenant;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  process.env.SMTP_URL = smtp.url;
  process.env.EMAIL_FROM = 'Shop <hello@shop.example.com>';
  resetConfig();
  t = await createTenant();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.EMAIL_FROM;
  resetConfig();
  await smtp?.close();
});

let mailbox = 0;
/** A lead at a domain of its own unless one is given. */
async function lead(name: string, domain = `d${++mailbox}.example.com`) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: auth(t),
    body: { site_id: t.siteId, name, email: `lead${++mailbox}@${domain}`, company: 'Acme' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead as { id: string; email: string };
}

async function sequence(extra: Record<string, unknown> = {}) {
  const res = await call(createRoute, {
    method: 'POST',
    path: '/api/sequences',
    headers: auth(t),
    body: {
      site_id: t.siteId,
      name: 'Welcome',
      steps: [
        { delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello {{first_name|there}} at {{company}}, from {{site_name}}.' },
        { delay_minutes: 60, subject: 'Following up, {{first_name}}', body: 'Any thoughts?' },
      ],
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

async function enroll(id: string, leadIds: string[]) {
  const res = await call(enrollRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments`,
    params: { id },
    headers: auth(t),
    body: { site_id: t.siteId, lead_ids: leadIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const made = res.body.data.enrollments as { id: string; lead_id: string; next_send_at: string }[];
  // In the order of the ids given (the answer lists them oldest lead first).
  return leadIds.map((leadId) => made.find((e) => e.lead_id === leadId)!);
}

const detail = async (id: string) =>
  (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } })).body.data;
const enrollmentRow = async (id: string) => (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id)))[0];
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));

describe('the worker sends the first step', () => {
  let worker: BackgroundWork;
  beforeAll(async () => {
    worker = await startBackgroundWork();
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it('to each lead, personalised, with one-click unsubscribe; the next step is due after its delay', async () => {
    const id = await sequence();
    const [ada, grace] = await Promise.all([lead('Ada Lovelace'), lead('Grace Hopper')]);
    const enrolled = await enroll(id, [ada.id, grace.id]);
    const seen = smtp.received.length;
    await smtp.next(seen);
    await smtp.next(seen + 1);
    const toAda = mailsTo(ada.email);
    expect(toAda).toHaveLength(1);
    expect(toAda[0].parsed.subject).toBe('Hi Ada');
    expect(toAda[0].parsed.text).toContain('Hello Ada at Acme, from Test site.');
    expect(toAda[0].raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/im);
    expect(mailsTo(grace.email)[0].parsed.subject).toBe('Hi Grace');

    // Both recorded: figures of step 0, the enrollment at step 1 due an hour after the send.
    // The send's record commits just after the server accepted the mail.
    const got = await until('both sends recorded', async () => {
      const d = await detail(id);
      return d.figures.sent === 2 && d;
    });
    expect(got.figures).toMatchObject({ enrolled: 2, active: 2, sent: 2 });
    expect(got.step_figures[0]).toMatchObject({ sent: 2, waiting: 0 });
    expect(got.step_figures[1]).toMatchObject({ sent: 0, waiting: 2 });
    const row = await enrollmentRow(enrolled.find((e) => e.lead_id === ada.id)!.id);
    expect(row.nextStep).toBe(1);
    const [message] = await (
      await getDb()
    )
      .select()
      .from(sequenceMessages)
      .where(and(eq(sequenceMessages.enrollmentId, row.id), eq(sequenceMessages.step, 0)));
    expect(message.status).toBe('sent');
    expect(row.nextSendAt!.getTime() - message.sentAt!.getTime()).toBe(60 * 60_000);
  });
});

describe('step by step under a test clock', () => {
  it('sends the second step once it is due, once, and completes the enrollment', async () => {
    const id = await sequence();
    const ada = await lead('Ada Lovelace');
    const start = Date.UTC(2026, 11, 7, 10, 0); // a Monday, 10:00 UTC
    setClock(start);
    const [e] = await enroll(id, [ada.id]);
    await runStep(t.siteId, e.id, 0);
    expect(mailsTo(ada.email).map((m) => m.parsed.subject)).toEqual(['Hi Ada']);

    // Not yet due: nothing is sent.
    setClock(start + 59 * 60_000);
    await runStep(t.siteId, e.id, 1);
    expect(mailsTo(ada.email)).toHaveLength(1);

    setClock(start + 61 * 60_000);
    // Two runs of the step's job at once (a duplicate, a retry): the step goes out once.
    await Promise.all([runStep(t.siteId, e.id, 1), runStep(t.siteId, e.id, 1)]);
    await runStep(t.siteId, e.id, 1);
    expect(mailsTo(ada.email).map((m) => m.parsed.subject)).toEqual(['Hi Ada', 'Following up, Ada']);
    expect(await enrollmentRow(e.id)).toMatchObject({ status: 'completed', nextStep: 2, nextSendAt: null });
    expect((await detail(id)).figures).toMatchObject({ enrolled: 1, completed: 1, active: 0, sent: 2 });
  });

  it('never sends a step again that a worker claimed and died sending', async () => {
    const id = await sequence();
    const ada = await lead('Ada Lovelace');
    setClock(Date.UTC(2026, 11, 7, 10, 0));
    const [e] = await enroll(id, [ada.id]);
    // What a worker killed mid-send leaves: the claim, written before the mail went to the server.
    await (await getDb()).insert(sequenceMessages).values({ siteId: t.siteId, sequenceId: id, enrollmentId: e.id, step: 0, status: 'sending' });
    await runStep(t.siteId, e.id, 0);
    expect(mailsTo(ada.email)).toHaveLength(0);
    const [message] = await (await getDb()).select().from(sequenceMessages).where(eq(sequenceMessages.enrollmentId, e.id));
    expect(message.status).toBe('failed');
    expect(await enrollmentRow(e.id)).toMatchObject({ status: 'active', nextStep: 1 });
  });

  it("defers a step due outside the send window to the window's next hour in the site's time zone", async () => {
    await updateSettings(t.siteId, { business_hours: { timezone: 'America/New_York' } });
    const id = await sequence({ send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 } });
    const ada = await lead('Ada Lovelace');
    // Saturday 2026-12-12 12:00 UTC (07:00 in New York): the next allowed hour is Monday 09:00 New York, 14:00 UTC.
    setClock(Date.UTC(2026, 11, 12, 12, 0));
    const [e] = await enroll(id, [ada.id]);
    await runStep(t.siteId, e.id, 0);
    expect(mailsTo(ada.email)).toHaveLength(0);
    expect((await enrollmentRow(e.id)).nextSendAt!.toISOString()).toBe('2026-12-14T14:00:00.000Z');
    // A job run early does nothing; at the hour the step goes.
    setClock(Date.UTC(2026, 11, 13, 12, 0));
    await runStep(t.siteId, e.id, 0);
    expect(mailsTo(ada.email)).toHaveLength(0);
    setClock(Date.UTC(2026, 11, 14, 14, 0));
    await runStep(t.siteId, e.id, 0);
    expect(mailsTo(ada.email)).toHaveLength(1);
    await updateSettings(t.siteId, { business_hours: null });
  });

  it('keeps to the daily cap and the per-domain throttle', async () => {
    const day = Date.UTC(2026, 11, 15, 10, 0);
    setClock(day);
    // The cap counts the site's messages of the day: a site of its own.
    const own = await createTenant();
    const saved = t;
    t = own;
    try {
      const capped = await sequence({ daily_cap: 1 });
      const [a, b] = await Promise.all([lead('Ann'), lead('Bob')]);
      const [ea, eb] = await enroll(capped, [a.id, b.id]);
      await runStep(t.siteId, ea.id, 0);
      await runStep(t.siteId, eb.id, 0);
      const sent = [ea, eb].filter((e) => mailsTo(e.lead_id === a.id ? a.email : b.email).length === 1);
      expect(sent).toHaveLength(1);
      const waiting = sent[0] === ea ? eb : ea;
      expect((await enrollmentRow(waiting.id)).nextSendAt!.toISOString()).toBe('2026-12-16T00:00:00.000Z');

      const throttled = await sequence({ domain_per_minute: 1 });
      const [c, d, other] = await Promise.all([lead('Cy', 'same.example.com'), lead('Di', 'same.example.com'), lead('Ed')]);
      const [ec, ed, ee] = await enroll(throttled, [c.id, d.id, other.id]);
      await runStep(t.siteId, ec.id, 0);
      await runStep(t.siteId, ed.id, 0);
      await runStep(t.siteId, ee.id, 0);
      expect(mailsTo(c.email)).toHaveLength(1);
      expect(mailsTo(d.email)).toHaveLength(0);
      expect(mailsTo(other.email)).toHaveLength(1);
      expect((await enrollmentRow(ed.id)).nextSendAt!.getTime()).toBe(day + 60_000);
      setClock(day + 60_000);
      await runStep(t.siteId, ed.id, 0);
      expect(mailsTo(d.email)).toHaveLength(1);
    } finally {
      t = saved;
    }
  });

  it("stops on the lead's status, on an address suppressed since, and sends nothing while paused", async () => {
    setClock(Date.UTC(2026, 11, 7, 10, 0));
    const id = await sequence({ stop_on_status: ['converted'] });
    const [won, gone, held] = await Promise.all([lead('Won'), lead('Gone'), lead('Held')]);
    const [ew, eg, eh] = await enroll(id, [won.id, gone.id, held.id]);
    await (await getDb()).update(leads).set({ status: 'converted' }).where(eq(leads.id, won.id));
    await suppress(t.siteId, gone.email, 'unsubscribed');
    await runStep(t.siteId, ew.id, 0);
    await runStep(t.siteId, eg.id, 0);
    expect(await enrollmentRow(ew.id)).toMatchObject({ status: 'stopped', stopReason: 'converted' });
    expect(await enrollmentRow(eg.id)).toMatchObject({ status: 'stopped', stopReason: 'unsubscribed' });

    const paused = await call(patchRoute, {
      method: 'PATCH',
      path: `/api/sequences/${id}`,
      params: { id },
      headers: auth(t),
      body: { site_id: t.siteId, status: 'paused' },
    });
    expect(paused.status).toBe(200);
    await runStep(t.siteId, eh.id, 0);
    expect(await enrollmentRow(eh.id)).toMatchObject({ status: 'active', nextStep: 0 });
    await call(patchRoute, {
      method: 'PATCH',
      path: `/api/sequences/${id}`,
      params: { id },
      headers: auth(t),
      body: { site_id: t.siteId, status: 'active' },
    });
    await runStep(t.siteId, eh.id, 0);
    expect([won, gone, held].map((l) => mailsTo(l.email).length)).toEqual([0, 0, 1]);
  });
});
