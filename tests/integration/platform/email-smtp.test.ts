import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as sendRoute } from '@/app/api/platform/email/send/route';
import { GET as meRoute } from '@/app/api/platform/me/route';
import { POST as verifyRoute } from '@/app/api/sites/[site_id]/email-recipients/[recipient_id]/verify/route';
import { GET as emailsRoute } from '@/app/api/sites/[site_id]/emails/route';
import { rows } from '@/lib/db/raw';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { addTestRecipient, createPlatformFixture, createPlatformKey, platformAuth, type PlatformFixture } from '@/tests/helpers/platform';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';

/**
 * The email port's SMTP transport against a real SMTP server on 127.0.0.1 (`smtp-server`, with
 * AUTH): what the platform API and the address verification send is what the server receives.
 */
const smtp = useSmtpStandIn();
let t: Tenant;
let fx: PlatformFixture;

beforeAll(async () => {
  t = await createTenant();
  fx = await createPlatformFixture(t);
});

const send = (key: string, body: Record<string, unknown>) =>
  call(sendRoute, { method: 'POST', path: '/api/platform/email/send', headers: platformAuth(key), body });
const emailLog = async () =>
  (await call(emailsRoute, { path: `/api/sites/${t.siteId}/emails`, params: { site_id: t.siteId }, headers: t.user.auth, query: { limit: '100' } }))
    .body.data;

describe('SMTP transport', () => {
  it('delivers the message to the SMTP server, authenticated, exactly as sent', async () => {
    const seen = smtp.received.length;
    const to = [uniqueEmail(), uniqueEmail()];
    const res = await send(fx.key, {
      to,
      subject: 'Your order ✓ shipped',
      text: 'Hello Ada,\nyour order is on its way.',
      html: '<p>Hello Ada, your order is on its way.</p>',
      reply_to: 'support@shop.example.com',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ transport: 'smtp', status: 'sent', to, provider_message_id: expect.any(String) });

    const mail = await smtp.next(seen);
    expect(mail.user).toBe('mailer');
    expect(mail.envelope).toEqual({ from: 'hello@shop.example.com', to });
    expect(mail.parsed.subject).toBe('Your order ✓ shipped');
    expect(mail.parsed.from?.value).toEqual([{ address: 'hello@shop.example.com', name: 'Test site' }]);
    expect((Array.isArray(mail.parsed.to) ? mail.parsed.to : [mail.parsed.to!]).flatMap((a) => a.value.map((v) => v.address))).toEqual(to);
    expect(mail.parsed.replyTo?.value[0].address).toBe('support@shop.example.com');
    expect(mail.parsed.text?.trim()).toBe('Hello Ada,\nyour order is on its way.');
    expect(mail.parsed.html).toContain('<p>Hello Ada, your order is on its way.</p>');
    expect(mail.parsed.messageId).toBe(res.body.data.provider_message_id);

    // The log keeps the envelope of an SMTP message, never its body.
    const logged = (await emailLog()).find((m: { id: string }) => m.id === res.body.data.id);
    expect(logged).toMatchObject({ transport: 'smtp', status: 'sent', subject: 'Your order ✓ shipped', text: null, html: null, app_id: fx.appId });
  });

  it('answers 502 when the server refuses every recipient, logs the failure and gives the quota back', async () => {
    const before = smtp.received.length;
    const res = await send(fx.key, { to: ['refuse-me@example.com'], subject: 'Nope', text: 'x' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('PROVIDER_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('refuse-me');
    expect(smtp.received.length).toBe(before);
    const [row] = await rows<{ status: string }>(
      sql`select status from email_messages where site_id = ${t.siteId} and 'refuse-me@example.com' = any(to_addresses)`,
    );
    expect(row.status).toBe('failed');
    const me = await call(meRoute, { path: '/api/platform/me', headers: platformAuth(fx.key) });
    const used = me.body.data.quotas.find((q: { capability: string }) => q.capability === 'email.send').used;
    expect(used).toBe(2); // the two recipients of the first test only
  });

  it('mails the verification code over SMTP; a test-only key then reaches that address only', async () => {
    const address = uniqueEmail();
    const seen = smtp.received.length;
    const added = await addTestRecipient(t, address);
    expect(added.status).toBe(201);
    const mail = await smtp.next(seen);
    expect(mail.envelope.to).toEqual([address]);
    const code = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.parsed.text ?? '')![1];
    expect(mail.parsed.subject).toContain(code);

    const verified = await call(verifyRoute, {
      method: 'POST',
      path: `/api/sites/${t.siteId}/email-recipients/${added.body.data.id}/verify`,
      params: { site_id: t.siteId, recipient_id: added.body.data.id },
      headers: t.user.auth,
      body: { code },
    });
    expect(verified.body.data.verified).toBe(true);

    const testOnly = (await createPlatformKey(t, fx.appId, ['email.send.test-only'])).platformKey;
    expect((await send(testOnly, { to: [uniqueEmail()], subject: 'Test', text: 'x' })).status).toBe(403);
    const next = smtp.received.length;
    expect((await send(testOnly, { to: [address], subject: 'Preview', text: 'Preview of the welcome mail' })).status).toBe(201);
    const preview = await smtp.next(next);
    expect(preview.envelope.to).toEqual([address]);
    expect(preview.parsed.text?.trim()).toBe('Preview of the welcome mail');
  });
});
