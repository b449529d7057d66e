import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { getDb } from '@/lib/db/client';
import { leads, sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { suppress } from '@/lib/email/repo';
import { runStep } from '@/lib/sequences/send';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';
import { auth, createLead, createSequence, enrollLeads } from './calls';

/**
 * Sequences sending through the SMTP transport to a real SMTP server (the `smtp-server` stand-in),
 * beyond what every engine shows (`./behaviour.ts`): a claim left by a worker killed mid-send, the
 * daily cap, the domain throttle and the stops on status, suppression and pause, driven step by
 * step under a test clock (`runStep` is what a step's job or workflow activity runs), never by waiting.
 */
const setClock = testClock();
const smtp = useSmtpStandIn();
let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
});

let mailbox = 0;
/** A lead at a domain of its own unless one is given. */
const lead = (name: string, domain = `d${++mailbox}.example.com`) => createLead(t, name, { email: `lead${++mailbox}@${domain}`, company: 'Acme' });

const sequence = async (extra: Record<string, unknown> = {}) =>
  (
    await createSequence(t, {
      name: 'Welcome',
      steps: [
        { delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello {{first_name|there}} at {{company}}, from {{site_name}}.' },
        { delay_minutes: 60, subject: 'Following up, {{first_name}}', body: 'Any thoughts?' },
      ],
      ...extra,
    })
  ).id;

const enroll = (id: string, leadIds: string[]) => enrollLeads(t, id, leadIds);

const enrollmentRow = async (id: string) => (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id)))[0];
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));

describe('step by step under a test clock', () => {
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
