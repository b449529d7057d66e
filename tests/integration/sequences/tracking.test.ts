import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as clickRoute } from '@/app/api/email/click/route';
import { GET as openRoute } from '@/app/api/email/open/route';
import { GET as getRoute, PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { getDb } from '@/lib/db/client';
import { sequenceMessages } from '@/lib/db/schema';
import { runStep } from '@/lib/sequences/send';
import { clickToken } from '@/lib/sequences/tracking';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';
import { auth, createLead, createSequence, enrollLeads } from './calls';

/**
 * Open and click tracking of a sequence's messages, through a real SMTP server, beyond the counts
 * every engine shows (`./behaviour.ts`): links and pixel of an HTML step (escaped values, mailto
 * and unsubscribe untouched, the first open and click times), an altered or forged link redirects
 * nowhere, tracking off sends the message as written.
 */
const setClock = testClock();
const smtp = useSmtpStandIn();
let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
});

const lead = (name: string) => createLead(t, name);

const STEPS = [
  {
    delay_minutes: 0,
    subject: 'Hi {{first_name}}',
    format: 'html',
    body: '<html><body><p>Hello {{name}},</p><p>See <a href="https://shop.example.com/offer?a=1&amp;b=2">our offer</a> or <a href="mailto:x@example.com">write</a>.</p></body></html>',
  },
  { delay_minutes: 60, subject: 'Following up', body: 'Our prices: https://shop.example.com/prices. Thanks!' },
];

const sequence = (extra: Record<string, unknown> = {}) => createSequence(t, { name: 'Tracked', steps: STEPS, ...extra });

const enrollOne = async (id: string, leadId: string) => (await enrollLeads(t, id, [leadId]))[0];

const detail = async (id: string) =>
  (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } })).body.data;
const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
const tokenOf = (url: string) => new URL(url).searchParams.get('t')!;
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
const pixelOf = (html: string) => /<img src="([^"]+\/api\/email\/open\?t=[^"]+)"/.exec(html)?.[1].replace(/&amp;/g, '&');

/** The pixel and the redirect answer images and redirects, not JSON: their handlers are called as Next calls them. */
const get = (handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>, path: string, token: string) =>
  handler(new Request(`http://localhost${path}?t=${encodeURIComponent(token)}`), { params: Promise.resolve({}) });

describe('a tracked sequence', () => {
  it("rewrites an HTML step's http(s) links and adds the pixel; values escaped; the first open and click times kept", async () => {
    const seq = await sequence();
    expect(seq.tracking).toBe(true);
    const [ada, bob] = await Promise.all([lead('Ada Lovelace'), lead('Bob <b>Bold</b>')]);
    const start = Date.UTC(2026, 11, 7, 10, 0);
    setClock(start);
    const ea = await enrollOne(seq.id, ada.id);
    const eb = await enrollOne(seq.id, bob.id);
    await runStep(t.siteId, ea.id, 0);
    await runStep(t.siteId, eb.id, 0);
    const [toAda] = mailsTo(ada.email);
    const html = String(toAda.parsed.html);
    // Values are escaped in HTML: a lead's name never becomes markup.
    expect(String(mailsTo(bob.email)[0].parsed.html)).toContain('Hello Bob &lt;b&gt;Bold&lt;/b&gt;,');
    const links = hrefs(html);
    const tracked = links.filter((h) => h.includes('/api/email/click?t='));
    // The http(s) link is tracked; mailto and the unsubscribe page are not.
    expect(tracked).toHaveLength(1);
    expect(links).toContain('mailto:x@example.com');
    expect(links.some((h) => h.includes('/unsubscribe?token='))).toBe(true);
    // The text alternative carries the tracked link too, and no pixel.
    expect(toAda.parsed.text).toContain('/api/email/click?t=');
    expect(toAda.parsed.text).not.toContain('shop.example.com/offer');

    const pixel = await get(openRoute, '/api/email/open', tokenOf(pixelOf(html)!));
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    expect(pixel.headers.get('cache-control')).toContain('no-store');
    setClock(start + 5 * 60_000);
    await get(clickRoute, '/api/email/click', tokenOf(tracked[0]));
    setClock(start + 9 * 60_000);
    await get(openRoute, '/api/email/open', tokenOf(pixelOf(html)!));
    await get(clickRoute, '/api/email/click', tokenOf(tracked[0]));
    const [message] = await (await getDb()).select().from(sequenceMessages).where(eq(sequenceMessages.enrollmentId, ea.id));
    expect(message).toMatchObject({ opens: 2, clicks: 2 });
    expect(message.openedAt!.toISOString()).toBe(new Date(start).toISOString());
    expect(message.clickedAt!.toISOString()).toBe(new Date(start + 5 * 60_000).toISOString());
    expect((await detail(seq.id)).step_figures[0].variants[0]).toMatchObject({ opened: 1, clicked: 1 });
  });

  it('refuses an altered or forged link: 404, no redirect', async () => {
    const seq = await sequence();
    const ada = await lead('Ada Lovelace');
    setClock(Date.UTC(2026, 11, 8, 10, 0));
    const e = await enrollOne(seq.id, ada.id);
    await runStep(t.siteId, e.id, 0);
    const html = String(mailsTo(ada.email)[0].parsed.html);
    const token = tokenOf(hrefs(html).find((h) => h.includes('/api/email/click'))!);
    const [version, payload, signature] = token.split('.');
    // The target swapped for another, the signature kept.
    const [siteId, messageId] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as string[];
    const swapped = Buffer.from(JSON.stringify([siteId, messageId, 'https://evil.example.net/'])).toString('base64url');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `${version}.${swapped}.${signature}`,
      `${version}.${payload}.${flipped}`,
      'c1.bm90LWpzb24.AAAAAAAAAAAAAAAAAAAAAAAA',
      'https://evil.example.net/',
    ]) {
      const res = await get(clickRoute, '/api/email/click', bad);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    // An open token is not a click token, nor the reverse.
    const pixelToken = tokenOf(pixelOf(html)!);
    expect((await get(clickRoute, '/api/email/click', pixelToken)).status).toBe(404);
    expect((await get(openRoute, '/api/email/open', token)).status).toBe(404);
    // A missing token is a bad request.
    const missing = await clickRoute(new Request('http://localhost/api/email/click'), { params: Promise.resolve({}) });
    expect(missing.status).toBe(400);
    // A target that is not http(s) is never signed into a link, and never redirected to.
    expect((await get(clickRoute, '/api/email/click', clickToken({ siteId, messageId }, 'javascript:alert(1)'))).status).toBe(404);
    expect((await detail(seq.id)).figures).toMatchObject({ opened: 0, clicked: 0 });
  });

  it('sends the message as written when the sequence has tracking off', async () => {
    const seq = await sequence({ tracking: false });
    expect(seq.tracking).toBe(false);
    const ada = await lead('Ada Lovelace');
    setClock(Date.UTC(2026, 11, 9, 10, 0));
    const e = await enrollOne(seq.id, ada.id);
    await runStep(t.siteId, e.id, 0);
    const [mail] = mailsTo(ada.email);
    expect(hrefs(String(mail.parsed.html))).toContain('https://shop.example.com/offer?a=1&b=2');
    expect(mail.raw).not.toContain('/api/email/click');
    expect(mail.raw).not.toContain('/api/email/open');

    // Turned on: the messages sent from then on are tracked.
    const patched = await call(patchRoute, {
      method: 'PATCH',
      path: `/api/sequences/${seq.id}`,
      params: { id: seq.id },
      headers: auth(t),
      body: { site_id: t.siteId, tracking: true },
    });
    expect(patched.body.data.tracking).toBe(true);
    setClock(Date.UTC(2026, 11, 9, 11, 1));
    await runStep(t.siteId, e.id, 1);
    expect(mailsTo(ada.email)[1].parsed.text).toContain('/api/email/click?t=');
  });
});
