import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as clickRoute } from '@/app/api/email/click/route';
import { GET as openRoute } from '@/app/api/email/open/route';
import { POST as unsubscribeRoute } from '@/app/api/email/unsubscribe/route';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { DELETE as unenrollRoute } from '@/app/api/sequences/[id]/enrollments/[lead_id]/route';
import { GET as getRoute, PATCH as patchRoute } from '@/app/api/sequences/[id]/route';
import { resetConfig } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { configureMailbox, syncMailbox } from '@/lib/email/inbound';
import { suppressedAmong } from '@/lib/email/repo';
import { sequenceReactions } from '@/lib/sequences/service';
import { updateSettings } from '@/lib/settings/service';
import type { BackgroundWork } from '@/lib/worker';
import { workflowEngine } from '@/lib/workflows/engines';
import { testClock } from '@/tests/helpers/clock';
import { DOVECOT_BINARY, dovecotAvailable, startDovecot, type DovecotServer, rawMessage } from '@/tests/helpers/dovecot';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';
import { until } from '@/tests/helpers/wait';
import { auth, createLead, createSequence, enrollLeads } from './calls';

/**
 * What a sequence does for its leads, on each workflow engine: mail through a real SMTP server
 * (the `smtp-server` stand-in), replies and bounces in a real Dovecot mailbox, time from the test
 * clock. An engine's test file calls `describeSequenceBehaviour(name, setup)`; `setup` answers
 * how that engine's schedule is driven:
 *
 * - `due(siteId, ids)`: the enrollments' steps that are due by the test clock run now, as the
 *   engine runs them — embedded: the step's job; Temporal: the enrollment's workflow, woken (as a
 *   change of its due time wakes it) and read until it waits again;
 * - `background()`: the worker as `npm run worker` runs it (queues, and on Temporal a worker of
 *   the cluster), which sends a step due now by itself.
 */
export interface SequenceEngine {
  due(siteId: string, enrollmentIds: string[]): Promise<void>;
  background(): Promise<BackgroundWork>;
  stop(): Promise<void>;
}

export function describeSequenceBehaviour(engineName: string, setup: () => Promise<SequenceEngine>): void {
  describe(`sequences on the ${engineName} engine`, () => {
    const setClock = testClock();
    let engine: SequenceEngine;
    let smtp: SmtpStandIn;
    let t: Tenant;

    beforeAll(async () => {
      smtp = await startSmtpStandIn();
      process.env.SMTP_URL = smtp.url;
      process.env.EMAIL_FROM = 'Shop <hello@shop.example.com>';
      process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
      resetConfig();
      engine = await setup();
      t = await createTenant();
    });
    afterAll(async () => {
      await engine?.stop();
      delete process.env.SMTP_URL;
      delete process.env.EMAIL_FROM;
      delete process.env.OUTBOUND_ALLOW_HOSTS;
      resetConfig();
      await smtp?.close();
    });

    /** A lead at a domain of its own unless one is given. */
    const lead = (name: string, domain = `${randomBytes(3).toString('hex')}.example.com`) =>
      createLead(t, name, { email: `lead-${randomBytes(4).toString('hex')}@${domain}`, company: 'Acme' });

    const TWO_STEPS = [
      { delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello {{first_name|there}} at {{company}}, from {{site_name}}.' },
      { delay_minutes: 60, subject: 'Following up, {{first_name}}', body: 'Any thoughts?' },
    ];

    const sequence = async (extra: Record<string, unknown> = {}) => (await createSequence(t, { name: 'Welcome', steps: TWO_STEPS, ...extra })).id;

    const enroll = (id: string, leadIds: string[]) => enrollLeads(t, id, leadIds);

    const due = (...enrollments: { id: string }[]) =>
      engine.due(
        t.siteId,
        enrollments.map((e) => e.id),
      );
    const detail = async (id: string) =>
      (await call(getRoute, { path: `/api/sequences/${id}`, params: { id }, headers: auth(t), query: { site_id: t.siteId } })).body.data;
    const enrollmentRow = async (id: string) => (await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id)))[0];
    const mailsTo = (address: string) => smtp.received.filter((m) => m.envelope.to.includes(address));
    describe('the worker', () => {
      let worker: BackgroundWork;
      beforeAll(async () => {
        worker = await engine.background();
      });
      afterAll(async () => {
        await worker?.stop();
      });

      it('sends the first step to each lead, personalised, with one-click unsubscribe; the next step is due after its delay', async () => {
        const id = await sequence();
        const [ada, grace] = await Promise.all([lead('Ada Lovelace'), lead('Grace Hopper')]);
        const seen = smtp.received.length;
        const enrolled = await enroll(id, [ada.id, grace.id]);
        await smtp.next(seen);
        await smtp.next(seen + 1);
        const toAda = mailsTo(ada.email);
        expect(toAda).toHaveLength(1);
        expect(toAda[0].parsed.subject).toBe('Hi Ada');
        expect(toAda[0].parsed.text).toContain('Hello Ada at Acme, from Test site.');
        expect(toAda[0].raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/im);
        expect(mailsTo(grace.email)[0].parsed.subject).toBe('Hi Grace');

        // Both recorded (just after the server accepted the mail): figures of step 0, the enrollment at step 1 due an hour after the send.
        const got = await until(
          'both sends recorded',
          async () => {
            const d = await detail(id);
            return d.figures.sent === 2 && d;
          },
          30_000,
        );
        expect(got.figures).toMatchObject({ enrolled: 2, active: 2, sent: 2 });
        expect(got.step_figures[0]).toMatchObject({ sent: 2, waiting: 0 });
        expect(got.step_figures[1]).toMatchObject({ sent: 0, waiting: 2 });
        const row = await enrollmentRow(enrolled[0].id);
        expect(row.nextStep).toBe(1);
        const [message] = await (
          await getDb()
        )
          .select()
          .from(sequenceMessages)
          .where(and(eq(sequenceMessages.enrollmentId, row.id), eq(sequenceMessages.step, 0)));
        expect(message.status).toBe('sent');
        expect(row.nextSendAt!.getTime() - message.sentAt!.getTime()).toBe(60 * 60_000);
        // The enrollments are not runs of the site: none in its logs, none under its cap of running workflows.
        const runs = await call(logsRoute, { path: '/api/logs/workflows', headers: auth(t), query: { site_id: t.siteId } });
        expect(runs.status, JSON.stringify(runs.body)).toBe(200);
        expect(runs.body.meta.total_found).toBe(0);
        expect(await workflowEngine().countRunning(t.siteId)).toBe(0);
      });
    });

    describe('step by step under a test clock', () => {
      it('sends the second step once it is due, once, and completes the enrollment', async () => {
        const id = await sequence();
        const ada = await lead('Ada Lovelace');
        const start = Date.UTC(2026, 11, 7, 10, 0); // a Monday, 10:00 UTC
        setClock(start);
        const [e] = await enroll(id, [ada.id]);
        await due(e);
        expect(mailsTo(ada.email).map((m) => m.parsed.subject)).toEqual(['Hi Ada']);

        // Not yet due: nothing is sent.
        setClock(start + 59 * 60_000);
        await due(e);
        expect(mailsTo(ada.email)).toHaveLength(1);

        setClock(start + 61 * 60_000);
        // Run twice at once (a duplicate, a retry): the step goes out once.
        await Promise.all([due(e), due(e)]);
        await due(e);
        expect(mailsTo(ada.email).map((m) => m.parsed.subject)).toEqual(['Hi Ada', 'Following up, Ada']);
        expect(await enrollmentRow(e.id)).toMatchObject({ status: 'completed', nextStep: 2, nextSendAt: null });
        expect((await detail(id)).figures).toMatchObject({ enrolled: 1, completed: 1, active: 0, sent: 2 });
      });

      it('holds every step while paused and sends it on resume; a changed delay moves a waiting step; an unenrolled lead gets nothing more', async () => {
        const id = await sequence();
        const [ada, bo] = await Promise.all([lead('Ada Lovelace'), lead('Bo Brown')]);
        const start = Date.UTC(2026, 11, 8, 10, 0);
        setClock(start);
        const [ea, eb] = await enroll(id, [ada.id, bo.id]);
        await due(ea, eb);
        const patch = (body: Record<string, unknown>) =>
          call(patchRoute, { method: 'PATCH', path: `/api/sequences/${id}`, params: { id }, headers: auth(t), body: { site_id: t.siteId, ...body } });
        expect((await patch({ status: 'paused' })).status).toBe(200);
        setClock(start + 61 * 60_000);
        await due(ea, eb);
        expect([ada, bo].map((l) => mailsTo(l.email).length)).toEqual([1, 1]);
        // Taken out while paused; the second step's delay doubled for the lead still waiting.
        const removed = await call(unenrollRoute, {
          method: 'DELETE',
          path: `/api/sequences/${id}/enrollments/${bo.id}`,
          params: { id, lead_id: bo.id },
          headers: auth(t),
          query: { site_id: t.siteId },
        });
        expect(removed.status, JSON.stringify(removed.body)).toBe(200);
        expect((await patch({ status: 'active', steps: [TWO_STEPS[0], { ...TWO_STEPS[1], delay_minutes: 120 }] })).status).toBe(200);
        await due(ea, eb);
        expect([ada, bo].map((l) => mailsTo(l.email).length)).toEqual([1, 1]);
        setClock(start + 121 * 60_000);
        await due(ea, eb);
        expect([ada, bo].map((l) => mailsTo(l.email).length)).toEqual([2, 1]);
        expect(await enrollmentRow(ea.id)).toMatchObject({ status: 'completed' });
        expect(await enrollmentRow(eb.id)).toMatchObject({ status: 'stopped', stopReason: 'removed' });
      });

      it("defers a step due outside the send window to the window's next hour in the site's time zone", async () => {
        await updateSettings(t.siteId, { business_hours: { timezone: 'America/New_York' } });
        try {
          const id = await sequence({ send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 } });
          const ada = await lead('Ada Lovelace');
          // Saturday 2026-12-12 12:00 UTC (07:00 in New York): the next allowed hour is Monday 09:00 New York, 14:00 UTC.
          setClock(Date.UTC(2026, 11, 12, 12, 0));
          const [e] = await enroll(id, [ada.id]);
          await due(e);
          expect(mailsTo(ada.email)).toHaveLength(0);
          expect((await enrollmentRow(e.id)).nextSendAt!.toISOString()).toBe('2026-12-14T14:00:00.000Z');
          // Early: nothing; at the hour the step goes.
          setClock(Date.UTC(2026, 11, 13, 12, 0));
          await due(e);
          expect(mailsTo(ada.email)).toHaveLength(0);
          setClock(Date.UTC(2026, 11, 14, 14, 0));
          await due(e);
          expect(mailsTo(ada.email)).toHaveLength(1);
        } finally {
          await updateSettings(t.siteId, { business_hours: null });
        }
      });
    });

    describe('tracking', () => {
      const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      const tokenOf = (url: string) => new URL(url).searchParams.get('t')!;
      /** The pixel and the redirect answer images and redirects, not JSON: their handlers are called as Next calls them. */
      const get = (handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>, path: string, token: string) =>
        handler(new Request(`http://localhost${path}?t=${encodeURIComponent(token)}`), { params: Promise.resolve({}) });

      it('counts the open pixel and the click redirect per message and step, each message once', async () => {
        const id = await sequence({
          steps: [
            {
              delay_minutes: 0,
              subject: 'Hi {{first_name}}',
              format: 'html',
              body: '<html><body><p>Hello {{name}},</p><p>See <a href="https://shop.example.com/offer?a=1&amp;b=2">our offer</a>.</p></body></html>',
            },
            { delay_minutes: 60, subject: 'Following up', body: 'Our prices: https://shop.example.com/prices. Thanks!' },
          ],
        });
        const [ada, bob] = await Promise.all([lead('Ada Lovelace'), lead('Bob Bold')]);
        const start = Date.UTC(2026, 11, 7, 10, 0);
        setClock(start);
        const [ea, eb] = await enroll(id, [ada.id, bob.id]);
        await due(ea, eb);
        const html = String(mailsTo(ada.email)[0].parsed.html);
        expect(html).toContain('Hello Ada Lovelace,');
        const link = hrefs(html).find((h) => h.includes('/api/email/click?t='))!;
        const pixel = /<img src="([^"]+\/api\/email\/open\?t=[^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');

        // Loaded three times (a proxy, a prefetch, the reader): one open; clicked twice: one click.
        for (let i = 0; i < 3; i++) expect((await get(openRoute, '/api/email/open', tokenOf(pixel))).status).toBe(200);
        setClock(start + 5 * 60_000);
        const click = await get(clickRoute, '/api/email/click', tokenOf(link));
        expect(click.status).toBe(302);
        expect(click.headers.get('location')).toBe('https://shop.example.com/offer?a=1&b=2');
        await get(clickRoute, '/api/email/click', tokenOf(link));
        const d = await detail(id);
        expect(d.figures).toMatchObject({ sent: 2, opened: 1, clicked: 1 });
        expect(d.step_figures[0]).toMatchObject({ sent: 2, opened: 1, clicked: 1 });
        const [message] = await (await getDb()).select().from(sequenceMessages).where(eq(sequenceMessages.enrollmentId, ea.id));
        expect(message).toMatchObject({ opens: 3, clicks: 2 });

        // The plain-text second step: its link tracked, no pixel; a click counts on that step.
        setClock(start + 61 * 60_000);
        await due(ea);
        const second = mailsTo(ada.email)[1];
        expect(second.raw).not.toContain('/api/email/open');
        const textLink = /(http:\/\/\S+\/api\/email\/click\?t=\S+?)\. Thanks!/.exec(second.parsed.text ?? '')![1];
        expect((await get(clickRoute, '/api/email/click', tokenOf(textLink))).headers.get('location')).toBe('https://shop.example.com/prices');
        expect((await detail(id)).step_figures[1]).toMatchObject({ sent: 1, opened: 1, clicked: 1 });
      });
    });

    /** A two-step sequence with the leads enrolled and its first step sent to each. */
    async function sentFirstStep(names: string[]) {
      setClock(Date.UTC(2026, 11, 7, 10, 0));
      const id = await sequence();
      const leads = await Promise.all(names.map((name) => lead(name, 'acme-bakeries.io')));
      const enrollments = await enroll(
        id,
        leads.map((l) => l.id),
      );
      await due(...enrollments);
      const mails = leads.map((l) => mailsTo(l.email)[0]);
      expect(mails.every(Boolean)).toBe(true);
      return { id, leads, enrollments, mails };
    }

    describe('stops', () => {
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
        expect(await enrollmentRow(enrollments[0].id)).toMatchObject({ status: 'stopped', stopReason: 'unsubscribed' });
        expect(await enrollmentRow(enrollments[1].id)).toMatchObject({ status: 'active', nextStep: 1 });
        const got = await detail(id);
        expect(got.figures).toMatchObject({ stopped: 1, active: 1, sent: 2, unsubscribed: 1 });
        expect(got.step_figures[0]).toMatchObject({ sent: 2, unsubscribed: 1 });
        // When the second step is due, only the lead still enrolled gets it.
        setClock(Date.UTC(2026, 11, 7, 12, 0));
        await due(...enrollments);
        expect(mailsTo(mails[0].envelope.to[0])).toHaveLength(1);
        expect(mailsTo(mails[1].envelope.to[0])).toHaveLength(2);
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

        it('a reply stops the enrollment and marks the step replied; an auto-reply does not; a bounce stops and suppresses', async () => {
          const { id, leads, enrollments, mails } = await sentFirstStep(['Ada', 'Bo', 'Cy']);
          const [ada, bo, cy] = leads;
          const sentId = (i: number) => mails[i].parsed.messageId!;
          await dovecot.deliver(
            account,
            rawMessage(
              {
                From: `Ada <${ada.email}>`,
                To: account,
                Subject: 'Re: Hi',
                'Message-ID': `<r-${randomBytes(4).toString('hex')}@acme-bakeries.io>`,
                'In-Reply-To': sentId(0),
                References: sentId(0),
              },
              'Yes please.',
            ),
          );
          await dovecot.deliver(
            account,
            rawMessage(
              { From: `Bo <${bo.email}>`, To: account, Subject: 'Out of office', 'Auto-Submitted': 'auto-replied', 'In-Reply-To': sentId(1) },
              'Away until Monday.',
            ),
          );
          await dovecot.deliver(
            account,
            rawMessage(
              { From: 'Mail Delivery System <MAILER-DAEMON@mx.acme-bakeries.io>', To: account, Subject: 'Undelivered Mail Returned to Sender' },
              `--b1\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.acme-bakeries.io\r\n\r\nFinal-Recipient: rfc822; ${cy.email}\r\nAction: failed\r\nStatus: 5.1.1\r\n--b1--`,
              'multipart/report; report-type=delivery-status; boundary="b1"',
            ),
          );
          expect(await syncMailbox(t.siteId, null, sequenceReactions)).toMatchObject({ replies: 1, auto_replies: 1, bounces: 1 });

          expect(await enrollmentRow(enrollments[0].id)).toMatchObject({ status: 'stopped', stopReason: 'replied' });
          expect(await enrollmentRow(enrollments[1].id)).toMatchObject({ status: 'active', nextStep: 1 });
          expect(await enrollmentRow(enrollments[2].id)).toMatchObject({ status: 'stopped', stopReason: 'bounced' });
          expect(await suppressedAmong(t.siteId, [cy.email])).toEqual(new Set([cy.email]));
          const got = await detail(id);
          expect(got.step_figures[0]).toMatchObject({ sent: 3, replied: 1, bounced: 1 });
          expect(got.figures).toMatchObject({ active: 1, stopped: 2, replied: 1, bounced: 1 });
          // When the second step is due, only the auto-replying lead gets it.
          setClock(Date.UTC(2026, 11, 7, 12, 0));
          await due(...enrollments);
          expect(leads.map((l) => mailsTo(l.email).length)).toEqual([1, 2, 1]);
        });
      });
    });
  });
}
