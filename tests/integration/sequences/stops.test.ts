import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as unsubscribeRoute } from '@/app/api/email/unsubscribe/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { GET as getRoute } from '@/app/api/sequences/[id]/route';
import { POST as createRoute } from '@/app/api/sequences/route';
import { resetConfig } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { configureMailbox, syncMailbox } from '@/lib/email/inbound';
import { suppressedAmong } from '@/lib/email/repo';
import { runStep } from '@/lib/sequences/send';
import { testClock } from '@/tests/helpers/clock';
import { DOVECOT_BINARY, dovecotAvailable, startDovecot, type DovecotServer } from '@/tests/helpers/dovecot';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';

/**
 * What ends an enrollment from outside: the one-click unsubscribe link of a sequence's message
 * (RFC 8058, the existing route) stops that lead only; a reply found by the mailbox sync in a
 * real Dovecot mailbox stops it and marks the step replied; a bounce stops it and suppresses the
 * address; an automatic reply changes nothing.
 */
const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });
const setClock = testClock();
let smtp: SmtpStandIn;
let t: Tenant;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  process.env.SMTP_URL = smtp.url;
  process.env.EMAIL_FROM = 'Shop <hello@shop.example.com>';
  process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
  resetConfig();
  t = await createTenant();
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.EMAIL_FROM;
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  resetConfig();
  await smtp?.close();
});

let n = 0;
async function lead(name: string) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: auth(t),
    body: { site_id: t.siteId, name, email: `lead${++n}-${randomBytes(3).toString('hex')}@acme-bakeries.io` },
  });
  expect(res.status).toBe(201);
  return res.body.lead as { id: string; email: string };
}

/** A two-step sequence with `leads` enrolled and its first step sent to each; answers the sequence and the mails. */
async function sentFirstStep(names: string[]) {
  setClock(Date.UTC(2026, 11, 7, 10, 0));
  const created = await call(createRoute, {
    method: 'POST',
    path: '/api/sequences',
    headers: auth(t),
    body: {
      site_id: t.siteId,
      name: 'Bread',
      steps: [
        { delay_minutes: 0, subject: 'Fresh bread, {{first_name}}?', body: 'Hi {{first_name|there}}, shall we talk?' },
        { delay_minutes: 60, subject: 'Bread again', body: 'Following up.' },
      ],
    },
  });
  const id = created.body.data.id as string;
  const leads = await Promise.all(names.map(lead));
  const res = await call(enrollRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments`,
    params: { id },
    headers: auth(t),
    body: { site_id: t.siteId, lead_ids: leads.map((l) => l.id) },
  });
  const enrollments = leads.map((l) => (res.body.data.enrollments as { id: string; lead_id: string }[]).find((e) => e.lead_id === l.id)!);
  for (const e of enrollments) await runStep(t.siteId, e.id, 0);
  const mails = leads.map((l) => smtp.received.find((m) => m.envelope.to.includes(l.email))!);
  return { id, leads, enrollments, mails };
}

const enrollment = async (id: string) => (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id)))[0];
const detail = async (id: string) =>
  (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } })).body.data;

it('one-click unsubscribe from a message stops that lead only, counted on the step', async () => {
  const { id, enrollments, mails } = await sentFirstStep(['Ada', 'Bo']);
  const link = /^List-Unsubscribe: <([^>]+)>/im.exec(mails[0].raw.replace(/\r?\n[ \t]+/g, ' '))![1].replace(/\s+/g, '');
  const url = new URL(link);
  const res = await call(unsubscribeRoute, {
    method: 'POST',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: 'List-Unsubscribe=One-Click',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(await enrollment(enrollments[0].id)).toMatchObject({ status: 'stopped', stopReason: 'unsubscribed' });
  expect(await enrollment(enrollments[1].id)).toMatchObject({ status: 'active', nextStep: 1 });
  const got = await detail(id);
  expect(got.figures).toMatchObject({ stopped: 1, active: 1, sent: 2, unsubscribed: 1 });
  expect(got.step_figures[0]).toMatchObject({ sent: 2, unsubscribed: 1 });
  // The stopped lead's next step is never sent.
  setClock(Date.UTC(2026, 11, 7, 12, 0));
  await runStep(t.siteId, enrollments[0].id, 1);
  expect(smtp.received.filter((m) => m.envelope.to.includes(mails[0].envelope.to[0]))).toHaveLength(1);
});

const available = dovecotAvailable();
if (!available && process.env.CI === 'true') throw new Error(`Dovecot (dovecot-imapd) is required under CI=true: ${DOVECOT_BINARY} not found`);

describe.skipIf(!available)('the mailbox sync (Dovecot)', () => {
  let dovecot: DovecotServer;
  const account = `inbox-${randomBytes(3).toString('hex')}@shop.example.com`;
  const password = `imap-${randomBytes(12).toString('hex')}`;
  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.addUser(account, password);
    await configureMailbox(
      t.siteId,
      { kind: 'session', user: { id: t.user.id, email: t.user.email, name: null } },
      { host: '127.0.0.1', port: dovecot.port, tls: false, username: account, password, folder: 'INBOX' },
    );
  });
  afterAll(async () => {
    await dovecot?.stop();
  });

  const message = (headers: Record<string, string>, body: string, contentType = 'text/plain; charset=utf-8') =>
    [
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Type: ${contentType}`,
      'MIME-Version: 1.0',
      `Date: ${new Date().toUTCString()}`,
      '',
      body,
      '',
    ].join('\r\n');

  it('a reply stops the enrollment and marks the step replied; an auto-reply does not; a bounce stops and suppresses', async () => {
    const { id, leads, enrollments, mails } = await sentFirstStep(['Ada', 'Bo', 'Cy']);
    const [ada, bo, cy] = leads;
    const sentId = (i: number) => mails[i].parsed.messageId!;
    await dovecot.deliver(
      account,
      message(
        {
          From: `Ada <${ada.email}>`,
          To: account,
          Subject: 'Re: Fresh bread',
          'Message-ID': `<r-${randomBytes(4).toString('hex')}@acme-bakeries.io>`,
          'In-Reply-To': sentId(0),
          References: sentId(0),
        },
        'Yes please.',
      ),
    );
    await dovecot.deliver(
      account,
      message(
        { From: `Bo <${bo.email}>`, To: account, Subject: 'Out of office', 'Auto-Submitted': 'auto-replied', 'In-Reply-To': sentId(1) },
        'Away until Monday.',
      ),
    );
    await dovecot.deliver(
      account,
      message(
        { From: 'Mail Delivery System <MAILER-DAEMON@mx.acme-bakeries.io>', To: account, Subject: 'Undelivered Mail Returned to Sender' },
        `--b1\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.acme-bakeries.io\r\n\r\nFinal-Recipient: rfc822; ${cy.email}\r\nAction: failed\r\nStatus: 5.1.1\r\n--b1--`,
        'multipart/report; report-type=delivery-status; boundary="b1"',
      ),
    );
    const summary = await syncMailbox(t.siteId, null);
    expect(summary).toMatchObject({ replies: 1, auto_replies: 1, bounces: 1 });

    expect(await enrollment(enrollments[0].id)).toMatchObject({ status: 'stopped', stopReason: 'replied' });
    expect(await enrollment(enrollments[1].id)).toMatchObject({ status: 'active', nextStep: 1 });
    expect(await enrollment(enrollments[2].id)).toMatchObject({ status: 'stopped', stopReason: 'bounced' });
    expect(await suppressedAmong(t.siteId, [cy.email])).toEqual(new Set([cy.email]));
    const got = await detail(id);
    expect(got.step_figures[0]).toMatchObject({ sent: 3, replied: 1, bounced: 1 });
    expect(got.figures).toMatchObject({ active: 1, stopped: 2, replied: 1, bounced: 1 });
  });
});
