import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as approveRoute } from '@/app/api/sequences/[id]/enrollments/[lead_id]/approve/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { GET as getRoute } from '@/app/api/sequences/[id]/route';
import { POST as createRoute } from '@/app/api/sequences/route';
import { resetConfig } from '@/lib/core/config';
import { resetProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { runStep } from '@/lib/sequences/send';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';

/**
 * Agent-drafted steps: the email agent (the OpenAI-compatible stand-in) writes the step's email
 * from the lead and the step's instructions when it is due. With review, the draft waits in the
 * enrollment until approved (as written or edited) through the API; without, it goes out as
 * written. With no model configured, the enrollment fails with MODEL_NOT_CONFIGURED.
 */
const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });
const setClock = testClock();
let smtp: SmtpStandIn;
let llm: LlmStandIn;
let t: Tenant;

beforeAll(async () => {
  [smtp, llm] = await Promise.all([startSmtpStandIn(), startLlmStandIn()]);
  process.env.SMTP_URL = smtp.url;
  process.env.EMAIL_FROM = 'Shop <hello@shop.example.com>';
  resetConfig();
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.EMAIL_FROM;
  resetConfig();
  await resetProviders();
  await Promise.all([smtp?.close(), llm?.close()]);
});

async function lead(name: string) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: auth(t),
    body: { site_id: t.siteId, name, email: `lead-${randomBytes(4).toString('hex')}@${randomBytes(3).toString('hex')}.example.com`, company: 'Acme' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead as { id: string; email: string };
}

const agentStep = (review?: boolean) => ({
  delay_minutes: 0,
  kind: 'agent',
  subject: 'An idea for {{company}}',
  body: 'Introduce our bakery ovens to {{first_name}}; mention the free trial.',
  ...(review === undefined ? {} : { review }),
});
async function sequence(steps: unknown[]) {
  const res = await call(createRoute, {
    method: 'POST',
    path: '/api/sequences',
    headers: auth(t),
    body: { site_id: t.siteId, name: 'Agent', steps },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}
async function enrollOne(id: string, leadId: string) {
  const res = await call(enrollRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments`,
    params: { id },
    headers: auth(t),
    body: { site_id: t.siteId, lead_ids: [leadId] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.enrollments[0] as { id: string };
}
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
