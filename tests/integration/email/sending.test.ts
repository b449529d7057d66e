import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as unsubscribeRoute } from '@/app/api/email/unsubscribe/route';
import { POST as sendRoute } from '@/app/api/platform/email/send/route';
import { GET as senderGet, PUT as senderPut } from '@/app/api/sites/[site_id]/email-sender/route';
import { DELETE as suppressionsDelete, GET as suppressionsGet } from '@/app/api/sites/[site_id]/email-suppressions/route';
import { GET as emailsRoute } from '@/app/api/sites/[site_id]/emails/route';
import { resetConfig } from '@/lib/core/config';
import { rows } from '@/lib/db/raw';
import { leadEmailHistory } from '@/lib/email/service';
import { unsubscribeToken } from '@/lib/email/unsubscribe';
import { createLead } from '@/lib/leads/repo';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { addTestRecipient, createPlatformFixture, platformAuth, type PlatformFixture } from '@/tests/helpers/platform';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';
import { runWorkflow, useEmbeddedWorkflows } from '@/tests/helpers/workflow-runs';

/**
 * Email out: leadFollowUp drafts with the model (a local OpenAI-compatible stand-in) and sends
 * through the email port — the site's outbox on the embedded default, a real SMTP server
 * (`smtp-server` on loopback) with SMTP_URL — from the site's sender identity, with a Message-ID
 * and the one-click unsubscribe, and an unsubscribed address is never written to again.
 */
const standIn = useModelForFile();
useEmbeddedWorkflows();
let mine: Tenant;
let other: Tenant;

beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const followUp = (t: Tenant, leadId: string) => runWorkflow(t, 'leadFollowUp', { lead_id: leadId });

const newLead = async (t: Tenant, email = uniqueEmail()) =>
  createLead(t.siteId, { site_id: t.siteId, name: 'Ada Baker', email, company: 'Acme Bakeries', status: 'new' });
const leadStatus = async (t: Tenant, id: string) =>
  (await rows<{ status: string }>(sql`select status from leads where site_id = ${t.siteId} and id = ${id}`))[0]?.status;
const emails = (t: Tenant, query: Record<string, string> = {}) =>
  call(emailsRoute, {
    path: `/api/sites/${t.siteId}/emails`,
    params: { site_id: t.siteId },
    headers: t.user.auth,
    query: { limit: '100', ...query },
  });

describe('leadFollowUp on the embedded default (outbox)', () => {
  it('drafts with the model, stores the message in the outbox linked to the lead and the run, and moves the lead to contacted', async () => {
    const lead = await newLead(mine);
    standIn.queue({ text: 'Subject: Fresh bread for Acme\nHi Ada,\n\nShall we talk about your ovens next week?\n\nBest' });
    const run = await followUp(mine, lead.id);
    expect(run, JSON.stringify(run)).toMatchObject({
      status: 'COMPLETED',
      result: {
        lead_id: lead.id,
        subject: 'Fresh bread for Acme',
        transport: 'outbox',
        lead_status: 'contacted',
        message_id: expect.stringMatching(/^<[0-9a-f-]{36}@localhost>$/),
      },
    });
    expect(await leadStatus(mine, lead.id)).toBe('contacted');

    const log = await emails(mine, { lead_id: lead.id });
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    const [message] = log.body.data;
    expect(message).toMatchObject({
      id: (run.result as { email_id: string }).email_id,
      transport: 'outbox',
      status: 'stored',
      direction: 'outbound',
      to: [lead.email],
      from: '"Test site" <no-reply@localhost>',
      subject: 'Fresh bread for Acme',
      lead_id: lead.id,
      workflow_id: run.workflowId,
      message_id: (run.result as { message_id: string }).message_id,
    });
    expect(message.text).toContain('Shall we talk about your ovens next week?');
    expect(message.text).toMatch(/To stop receiving these messages: http:\/\/localhost:3000\/unsubscribe\?token=v1\./);
    // The lead's history is the domain function behind the console's Email page (?lead=).
    expect((await leadEmailHistory(mine.siteId, lead.id)).items.map((m) => m.id)).toEqual([message.id]);
    // Another site's owner does not see it.
    expect((await emails(other, { lead_id: lead.id })).body.data).toEqual([]);
  });

  it('a lead of another site or none fails the run with LEAD_NOT_FOUND, nothing sent', async () => {
    const lead = await newLead(other);
    const run = await followUp(mine, lead.id);
    expect(run.status).toBe('FAILED');
    expect(run.failure?.message).toMatch(/^LEAD_NOT_FOUND/);
    expect((await emails(other, { lead_id: lead.id })).body.data).toEqual([]);
  });

  it('a lead without an email address fails the run with LEAD_HAS_NO_EMAIL', async () => {
    const lead = await newLead(mine);
    await rows(sql`update leads set email = '' where id = ${lead.id}`);
    const run = await followUp(mine, lead.id);
    expect(run.status).toBe('FAILED');
    expect(run.failure?.message).toMatch(/^LEAD_HAS_NO_EMAIL/);
    expect(await leadStatus(mine, lead.id)).toBe('new');
  });

  it('a model answer without a body sends nothing and fails with DRAFT_EMPTY', async () => {
    const lead = await newLead(mine);
    standIn.queue({ text: 'Just a subject' });
    const run = await followUp(mine, lead.id);
    expect(run.failure?.message).toMatch(/^DRAFT_EMPTY/);
    expect((await emails(mine, { lead_id: lead.id })).body.data).toEqual([]);
  });
});

describe('sender identity', () => {
  const sender = (t: Tenant, body?: unknown) =>
    body === undefined
      ? call(senderGet, { path: `/api/sites/${t.siteId}/email-sender`, params: { site_id: t.siteId }, headers: t.user.auth })
      : call(senderPut, { method: 'PUT', path: `/api/sites/${t.siteId}/email-sender`, params: { site_id: t.siteId }, headers: t.user.auth, body });

  it('defaults to EMAIL_FROM’s address and the site’s name; only the fields given change; null restores the default', async () => {
    const t = await createTenant();
    expect((await sender(t)).body.data).toEqual({ from_address: 'no-reply@localhost', from_name: 'Test site', reply_to: null, customized: false });
    const set = await sender(t, { from_address: 'Sales@Acme-Bakeries.io', from_name: 'Acme Sales', reply_to: 'inbox@acme-bakeries.io' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({
      from_address: 'sales@acme-bakeries.io',
      from_name: 'Acme Sales',
      reply_to: 'inbox@acme-bakeries.io',
      customized: true,
    });
    expect((await sender(t, { from_name: null })).body.data).toEqual({
      from_address: 'sales@acme-bakeries.io',
      from_name: 'Test site',
      reply_to: 'inbox@acme-bakeries.io',
      customized: true,
    });
  });

  it.each([
    ['a header injection in the name', { from_name: 'Acme\r\nBcc: x@y.z' }],
    ['quotes in the name', { from_name: 'The "best" bakery' }],
    ['an invalid address', { from_address: 'not an address' }],
    ['an unknown field', { signature: 'x' }],
  ])('refuses %s with 400 INVALID_REQUEST, nothing stored', async (_name, body) => {
    const t = await createTenant();
    const res = await sender(t, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    expect((await sender(t)).body.data.customized).toBe(false);
  });

  it('another user’s session may not read or change a site’s sender', async () => {
    const res = await call(senderPut, {
      method: 'PUT',
      path: `/api/sites/${mine.siteId}/email-sender`,
      params: { site_id: mine.siteId },
      headers: other.user.auth,
      body: { from_name: 'Hijack' },
    });
    expect([403, 404]).toContain(res.status);
    expect((await sender(mine)).body.data.from_name).toBe('Test site');
  });
});

describe('with SMTP_URL', () => {
  let smtp: SmtpStandIn;
  let fx: PlatformFixture;
  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    process.env.SMTP_URL = smtp.url;
    resetConfig();
    fx = await createPlatformFixture(mine);
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    await smtp?.close();
  });

  it('leadFollowUp’s message arrives at the SMTP server from the site’s identity, with Message-ID and one-click List-Unsubscribe', async () => {
    await call(senderPut, {
      method: 'PUT',
      path: `/api/sites/${mine.siteId}/email-sender`,
      params: { site_id: mine.siteId },
      headers: mine.user.auth,
      body: { from_name: 'Acme Sales', reply_to: 'inbox@acme-bakeries.io' },
    });
    const lead = await newLead(mine);
    const seen = smtp.received.length;
    standIn.queue({ text: 'Following up\nHi Ada, any news?' });
    const run = await followUp(mine, lead.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'COMPLETED', result: { transport: 'smtp', lead_status: 'contacted' } });
    const mail = await smtp.next(seen);
    expect(mail.envelope.to).toEqual([lead.email]);
    expect(mail.parsed.from?.value).toEqual([{ address: 'no-reply@localhost', name: 'Acme Sales' }]);
    expect(mail.parsed.replyTo?.value).toEqual([{ address: 'inbox@acme-bakeries.io', name: '' }]);
    expect(mail.parsed.subject).toBe('Following up');
    expect(mail.parsed.messageId).toBe((run.result as { message_id: string }).message_id);
    const headers = mail.raw.split(/\r\n\r\n/)[0].replace(/\r\n(?=[ \t])/g, '');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    const listUnsubscribe = headers.match(/^List-Unsubscribe:\s*<([^>]+)>$/im)?.[1];
    expect(listUnsubscribe).toMatch(/^http:\/\/localhost:3000\/api\/email\/unsubscribe\?token=v1\./);

    // The one-click POST (any body) puts the address on the site's suppression list.
    const url = new URL(listUnsubscribe!);
    const res = await call(unsubscribeRoute, {
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      query: { token: url.searchParams.get('token')! },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'List-Unsubscribe=One-Click',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.stringMatching(/^Unsubscribed/) });

    // Never written to again: the workflow fails, the platform API refuses, nothing reaches the server.
    const count = smtp.received.length;
    await rows(sql`update leads set status = 'new' where id = ${lead.id}`);
    standIn.queue({ text: 'Again\nHi Ada, last try.' });
    const again = await followUp(mine, lead.id);
    expect(again.status).toBe('FAILED');
    expect(again.failure?.message).toMatch(/^RECIPIENT_SUPPRESSED/);
    const platform = await call(sendRoute, {
      method: 'POST',
      path: '/api/platform/email/send',
      headers: platformAuth(fx.key),
      body: { to: [lead.email], subject: 'Hi', text: 'x' },
    });
    expect(platform.status).toBe(422);
    expect(platform.body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE', details: { suppressed: [lead.email] } } });
    expect(smtp.received.length).toBe(count);
    expect(await leadStatus(mine, lead.id)).toBe('new');

    const list = await call(suppressionsGet, {
      path: `/api/sites/${mine.siteId}/email-suppressions`,
      params: { site_id: mine.siteId },
      headers: mine.user.auth,
    });
    expect(list.body.data).toContainEqual({ email: lead.email, reason: 'unsubscribed', created_at: expect.any(String) });
    // Suppressed for this site only.
    const otherLead = await newLead(other, lead.email);
    standIn.queue({ text: 'Hello\nFrom another site.' });
    expect((await followUp(other, otherLead.id)).status).toBe('COMPLETED');
    // The owner may write to the address again.
    const removed = await call(suppressionsDelete, {
      method: 'DELETE',
      path: `/api/sites/${mine.siteId}/email-suppressions`,
      params: { site_id: mine.siteId },
      headers: mine.user.auth,
      query: { email: lead.email },
    });
    expect(removed.status).toBe(200);
    standIn.queue({ text: 'Back\nHi again.' });
    expect((await followUp(mine, lead.id)).status).toBe('COMPLETED');
  });
});

describe('the suppression list on the console’s own mail', () => {
  it('a verification code is never mailed to a suppressed address: 422, no recipient stored, nothing in the outbox', async () => {
    const t = await createTenant();
    const address = uniqueEmail();
    await rows(sql`insert into email_suppressions (site_id, email, reason) values (${t.siteId}, ${address}, 'unsubscribed')`);
    const res = await addTestRecipient(t, address);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE', details: { suppressed: [address] } } });
    expect(await rows(sql`select 1 from email_recipients where site_id = ${t.siteId}`)).toEqual([]);
    expect((await emails(t)).body.data).toEqual([]);
  });
});

describe('POST /api/email/unsubscribe', () => {
  it.each([
    ['an altered token', (token: string) => token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA')],
    ['garbage', () => 'v1.bm90LWEtdG9rZW4.xxxxxxxxxxxxxxxxxxxxxxxx'],
  ])('refuses %s with 400, nothing suppressed', async (_name, mangle) => {
    const address = uniqueEmail();
    const token = mangle(unsubscribeToken(mine.siteId, address));
    const res = await call(unsubscribeRoute, { method: 'POST', path: '/api/email/unsubscribe', query: { token } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    expect(await rows(sql`select 1 from email_suppressions where email = ${address}`)).toEqual([]);
  });

  it('a token for a site that does not exist is refused', async () => {
    const res = await call(unsubscribeRoute, {
      method: 'POST',
      path: '/api/email/unsubscribe',
      query: { token: unsubscribeToken(randomUUID(), uniqueEmail()) },
    });
    expect(res.status).toBe(400);
  });
});
