import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as approveRoute } from '@/app/api/sequences/[id]/enrollments/[lead_id]/approve/route';
import { GET as getRoute } from '@/app/api/sequences/[id]/route';
import { resetProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { draftsForReview } from '@/lib/sequences/review-repo';
import { runStep } from '@/lib/sequences/send';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';
import { auth, createLead, createSequence, enrollLeads, setLeadStatus } from './calls';

/**
 * Agent-drafted steps: the email agent (the OpenAI-compatible stand-in) writes the step's email
 * from the lead and the step's instructions when it is due. With review, the draft waits in the
 * enrollment until approved (as written or edited) through the API; without, it goes out as
 * written. With no model configured, the enrollment fails with MODEL_NOT_CONFIGURED.
 */
const setClock = testClock();
const smtp = useSmtpStandIn();
let llm: LlmStandIn;
let t: Tenant;

beforeAll(async () => {
  llm = await startLlmStandIn();
  t = await createTenant();
});
afterAll(async () => {
  await resetProviders();
  await llm?.close();
});

const lead = (name: string) => createLead(t, name, { company: 'Acme' });

const agentStep = (review?: boolean) => ({
  delay_minutes: 0,
  kind: 'agent',
  subject: 'An idea for {{company}}',
  body: 'Introduce our bakery ovens to {{first_name}}; mention the free trial.',
  ...(review === undefined ? {} : { review }),
});
const sequence = async (steps: unknown[], extra: Record<string, unknown> = {}) => (await createSequence(t, { name: 'Agent', steps, ...extra })).id;
const enrollOne = async (id: string, leadId: string) => (await enrollLeads(t, id, [leadId]))[0];
const shown = async (id: string, enrollmentId: string) =>
  (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } })).body.data.enrollments.find(
    (e: { id: string }) => e.id === enrollmentId,
  );
const approve = (id: string, leadId: string, body: Record<string, unknown> = {}) =>
  call(approveRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments/${leadId}/approve`,
    params: { id, lead_id: leadId },
    headers: auth(t),
    body: { site_id: t.siteId, ...body },
  });
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));

describe('without a model', () => {
  it('fails the enrollment with MODEL_NOT_CONFIGURED in its record, nothing sent', async () => {
    await resetProviders();
    const id = await sequence([agentStep(false)]);
    const ada = await lead('Ada Lovelace');
    setClock(Date.UTC(2026, 11, 7, 10, 0));
    const e = await enrollOne(id, ada.id);
    await runStep(t.siteId, e.id, 0);
    const enrollment = await shown(id, e.id);
    expect(enrollment).toMatchObject({ status: 'failed', draft: null });
    expect(enrollment.failure).toMatch(/^MODEL_NOT_CONFIGURED: /);
    expect(mailsTo(ada.email)).toHaveLength(0);
  });
});

describe('with the email agent', () => {
  let restore: () => void;
  beforeAll(async () => {
    restore = useStandIn(llm);
    await resetProviders();
  });
  afterAll(async () => {
    restore?.();
    await resetProviders();
  });

  it('keeps a reviewed draft until it is approved, then sends it as edited', async () => {
    const id = await sequence([agentStep(), { delay_minutes: 60, subject: 'Following up', body: 'Any thoughts?' }]);
    const ada = await lead('Ada Lovelace');
    setClock(Date.UTC(2026, 11, 8, 10, 0));
    const e = await enrollOne(id, ada.id);
    // Nothing waits for approval yet.
    expect((await approve(id, ada.id)).status).toBe(409);

    llm.queue({ text: 'Dear Ada, our ovens bake twice as fast. Try them free for a month.' });
    await runStep(t.siteId, e.id, 0);
    // The agent was given the lead and the step's instructions, its variables filled in.
    const prompt = textOf(llm.requests.at(-1)!.messages.at(-1));
    expect(prompt).toContain('Introduce our bakery ovens to Ada; mention the free trial.');
    expect(prompt).toContain('Ada Lovelace');
    const waiting = await shown(id, e.id);
    expect(waiting).toMatchObject({
      status: 'active',
      next_step: 0,
      next_send_at: null,
      draft: { step: 0, subject: 'An idea for Acme', body: 'Dear Ada, our ovens bake twice as fast. Try them free for a month.', approved: false },
    });
    // A job running again meanwhile neither asks the agent again nor sends.
    await runStep(t.siteId, e.id, 0);
    expect(llm.requests).toHaveLength(1);
    expect(mailsTo(ada.email)).toHaveLength(0);

    const approved = await approve(id, ada.id, { body: 'Dear Ada, our ovens bake twice as fast. Shall I send a trial unit?' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.draft).toMatchObject({ approved: true, subject: 'An idea for Acme' });
    expect(approved.body.data.next_send_at).not.toBeNull();
    // Approved, not yet sent: a second edit is taken.
    const edited = await approve(id, ada.id, { body: 'Dear Ada, our ovens bake twice as fast. Shall I send a trial unit?' });
    expect(edited.status).toBe(200);

    await runStep(t.siteId, e.id, 0);
    const [mail] = mailsTo(ada.email);
    expect(mail.parsed.subject).toBe('An idea for Acme');
    expect(mail.parsed.text).toContain('Dear Ada, our ovens bake twice as fast. Shall I send a trial unit?');
    const row = (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, e.id)))[0];
    expect(row).toMatchObject({ nextStep: 1, draft: null, status: 'active' });
    // Sent: nothing left to approve.
    expect((await approve(id, ada.id)).status).toBe(409);
  });

  it("lists the drafts waiting for review (the console's list), oldest first, until each is approved", async () => {
    const id = await sequence([agentStep(), { delay_minutes: 60, subject: 'Following up', body: 'Any thoughts?' }], {
      stop_on_status: ['converted'],
    });
    const [cy, di, ed] = [await lead('Cy Young'), await lead('Di Prince'), await lead('Ed Stone')];
    setClock(Date.UTC(2026, 11, 10, 10, 0));
    expect(await draftsForReview(t.siteId, id, 20)).toEqual({ items: [], total: 0 });
    for (const [i, person] of [cy, di, ed].entries()) {
      const e = await enrollOne(id, person.id);
      setClock(Date.UTC(2026, 11, 10, 10, i + 1));
      llm.queue({ text: `Dear ${person.email}, a draft.` });
      await runStep(t.siteId, e.id, 0);
    }
    const waiting = await draftsForReview(t.siteId, id, 20);
    expect(waiting.total).toBe(3);
    expect(waiting.items.map((d) => d.leadId)).toEqual([cy.id, di.id, ed.id]);
    expect(waiting.items[0]).toMatchObject({
      leadName: 'Cy Young',
      email: cy.email,
      step: 0,
      subject: 'An idea for Acme',
      body: `Dear ${cy.email}, a draft.`,
    });
    expect((await draftsForReview(t.siteId, id, 1)).items).toHaveLength(1);
    // Another site reads none of them.
    const other = await createTenant();
    expect((await draftsForReview(other.siteId, id, 20)).total).toBe(0);

    // Approved: it leaves the list; a lead whose status the sequence stops on is shown stopped, not waiting.
    expect((await approve(id, cy.id, { subject: 'For Cy' })).status).toBe(200);
    await setLeadStatus(t, di.id, 'converted');
    const left = await draftsForReview(t.siteId, id, 20);
    expect(left.total).toBe(1);
    expect(left.items.map((d) => d.leadId)).toEqual([ed.id]);
  });

  it('sends a draft without review as the agent wrote it', async () => {
    const id = await sequence([agentStep(false)]);
    const bob = await lead('Bob Baker');
    setClock(Date.UTC(2026, 11, 9, 10, 0));
    const e = await enrollOne(id, bob.id);
    llm.queue({ text: 'Hi Bob, a free month of our ovens?' });
    await runStep(t.siteId, e.id, 0);
    const [mail] = mailsTo(bob.email);
    expect(mail.parsed.subject).toBe('An idea for Acme');
    expect(mail.parsed.text).toContain('Hi Bob, a free month of our ovens?');
    expect(await shown(id, e.id)).toMatchObject({ status: 'completed', draft: null });
  });
});
