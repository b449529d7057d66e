import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { GET as suppressionsGet } from '@/app/api/sites/[site_id]/email-suppressions/route';
import { POST as replyRoute } from '@/app/api/sites/[site_id]/emails/[email_id]/reply/route';
import { GET as emailsRoute } from '@/app/api/sites/[site_id]/emails/route';
import { POST as checkRoute } from '@/app/api/sites/[site_id]/mailbox/check/route';
import { DELETE as mailboxDelete, GET as mailboxGet, PUT as mailboxPut } from '@/app/api/sites/[site_id]/mailbox/route';
import { engineDispatcher } from '@/lib/agents/dispatch';
import { getCommand } from '@/lib/commands/repo';
import { resetConfig } from '@/lib/core/config';
import { overrideProviders } from '@/lib/core/providers';
import { rows } from '@/lib/db/raw';
import { mailboxSync } from '@/lib/email/jobs';
import { createLead } from '@/lib/leads/repo';
import type { WorkflowRecord } from '@/lib/workflows/engine';
import { presenters } from '@/tests/helpers/auth-matrix';
import { DOVECOT_BINARY, dovecotAvailable, startDovecot, type DovecotServer, rawMessage } from '@/tests/helpers/dovecot';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { startSmtpStandIn } from '@/tests/helpers/smtp-standin';
import { runWorkflow, settledRun, useEmbeddedWorkflows } from '@/tests/helpers/workflow-runs';

/**
 * Email in: a site's mailbox over IMAP against a real Dovecot on loopback (started by the test
 * helper with a throwaway maildir). Required under CI=true; skipped with the reason elsewhere
 * when Dovecot is not installed (`apt-get install dovecot-imapd`).
 */
const available = dovecotAvailable();
if (!available && process.env.CI === 'true') throw new Error(`Dovecot (dovecot-imapd) is required under CI=true: ${DOVECOT_BINARY} not found`);

describe.skipIf(!available)('the site mailbox over IMAP (Dovecot)', () => {
  let dovecot: DovecotServer;
  const standIn = useModelForFile();
  useEmbeddedWorkflows();
  let mine: Tenant;
  const account = `inbox-${randomBytes(3).toString('hex')}@acme-bakeries.io`;
  const password = `imap-${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.addUser(account, password);
    mine = await createTenant();
  });
  afterAll(async () => {
    await dovecot?.stop();
  });

  const site = (t: Tenant) => ({ path: `/api/sites/${t.siteId}/mailbox`, params: { site_id: t.siteId }, headers: t.user.auth });
  const configure = (t: Tenant, body: Record<string, unknown>) =>
    call(mailboxPut, { method: 'PUT', ...site(t), body: { host: '127.0.0.1', port: dovecot.port, tls: false, username: account, ...body } });
  const check = (t: Tenant) => call(checkRoute, { method: 'POST', ...site(t), path: `/api/sites/${t.siteId}/mailbox/check` });

  /** An answer from `from` in the site's mailbox to the sent message `sentId`, threaded to it. */
  const deliverReply = (from: string, sentId: string, subject: string, messageId: string, text: string) =>
    dovecot.deliver(
      account,
      rawMessage({ From: from, To: account, Subject: subject, 'Message-ID': messageId, 'In-Reply-To': sentId, References: sentId }, text),
    );
  /** An automatic answer (out of office) from `from` to the sent message `sentId`. */
  const deliverAutoReply = (from: string, sentId: string, subject: string, text: string) =>
    dovecot.deliver(
      account,
      rawMessage({ From: from, To: account, Subject: subject, 'Auto-Submitted': 'auto-replied', 'In-Reply-To': sentId }, text),
    );

  /** A new lead of the site with an address of its own. */
  const newLead = (name: string, company: string) =>
    createLead(mine.siteId, { site_id: mine.siteId, name, email: uniqueEmail(), company, status: 'new' });
  const emails = async (t: Tenant, query: Record<string, string> = {}) =>
    (
      await call(emailsRoute, {
        path: `/api/sites/${t.siteId}/emails`,
        params: { site_id: t.siteId },
        headers: t.user.auth,
        query: { limit: '100', ...query },
      })
    ).body.data;

  it('stores the password as a secure token of the site, never returns it, and checks the connection', async () => {
    const missing = await configure(mine, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });

    const saved = await configure(mine, { password });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual({
      host: '127.0.0.1',
      port: dovecot.port,
      tls: false,
      username: account,
      folder: 'INBOX',
      secret_id: expect.any(String),
      last_uid: 0,
      last_sync_at: null,
      last_error_code: null,
    });
    expect(JSON.stringify((await call(mailboxGet, site(mine))).body)).not.toContain(password);
    const [token] = await rows<{ identifier: string; ciphertext: string }>(
      sql`select identifier, ciphertext from secure_tokens where site_id = ${mine.siteId} and id = ${saved.body.data.secret_id}`,
    );
    expect(token.identifier).toBe('mailbox.imap');
    expect(token.ciphertext).not.toContain(password);
    const stored = await rows(sql`select * from email_mailboxes where site_id = ${mine.siteId}`);
    expect(JSON.stringify(stored)).not.toContain(password);

    const ok = await check(mine);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toEqual({ ok: true, code: null, message: expect.stringContaining('INBOX'), messages: 0 });
  });

  it('syncEmails threads a reply to the lead and hands it to the email agent; bounces and auto-replies are recorded, not answered', async () => {
    const lead = await newLead('Ada Baker', 'Acme Bakeries');
    standIn.queue({ text: 'Fresh bread for Acme\nHi Ada, shall we talk next week?' });
    const followUp = await runWorkflow(mine, 'leadFollowUp', { lead_id: lead.id });
    expect(followUp.status, JSON.stringify(followUp)).toBe('COMPLETED');
    const sentId = (followUp.result as { message_id: string }).message_id;

    const ada = `Ada Baker <${lead.email}>`;
    await deliverReply(
      ada,
      sentId,
      'Re: Fresh bread for Acme',
      '<reply-1@acme-bakeries.io>',
      'Yes please, Tuesday works.\r\n\r\n> Hi Ada, shall we talk next week?',
    );
    await deliverAutoReply(ada, sentId, 'Out of office', 'I am away until Monday.');
    await dovecot.deliver(
      account,
      rawMessage(
        { From: 'Mail Delivery System <MAILER-DAEMON@mx.acme-bakeries.io>', To: account, Subject: 'Undelivered Mail Returned to Sender' },
        '--b1\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.acme-bakeries.io\r\n\r\nFinal-Recipient: rfc822; gone@acme-bakeries.io\r\nAction: failed\r\nStatus: 5.1.1\r\n--b1--',
        'multipart/report; report-type=delivery-status; boundary="b1"',
      ),
    );
    await dovecot.deliver(
      account,
      rawMessage({ From: 'someone@elsewhere.io', To: account, Subject: 'Hello', 'Message-ID': '<cold-1@elsewhere.io>' }, 'Just saying hello.'),
    );

    const sync = await runWorkflow(mine, 'syncEmails');
    expect(sync.status, JSON.stringify(sync)).toBe('COMPLETED');
    const result = sync.result as {
      fetched: number;
      stored: number;
      replies: number;
      bounces: number;
      auto_replies: number;
      commands: { email_id: string; command_id: string; lead_id: string | null }[];
      not_handed: unknown[];
      last_uid: number;
    };
    expect(result).toMatchObject({ fetched: 4, stored: 4, replies: 1, bounces: 1, auto_replies: 1, not_handed: [], last_uid: 4 });
    expect(result.commands).toHaveLength(1);
    expect(result.commands[0].lead_id).toBe(lead.id);

    // The reply is a command of the email agent, threaded to the lead.
    const command = await getCommand(mine.siteId, result.commands[0].command_id);
    expect(command).toMatchObject({ agent: 'email', conversation_id: expect.any(String) });
    expect(JSON.stringify(command)).toContain('Tuesday works');
    const [conversation] = await rows<{ lead_id: string; agent: string }>(
      sql`select lead_id, agent from conversations where site_id = ${mine.siteId} and id = ${command!.conversation_id}`,
    );
    expect(conversation).toEqual({ lead_id: lead.id, agent: 'email' });

    // The lead's email history: the follow-up, the reply (linked to the command) and the auto-reply (not handed on).
    const history = await emails(mine, { lead_id: lead.id });
    const reply = history.find((m: { message_id: string }) => m.message_id === '<reply-1@acme-bakeries.io>');
    expect(reply).toMatchObject({
      direction: 'inbound',
      transport: 'imap',
      status: 'received',
      kind: 'reply',
      in_reply_to: sentId,
      lead_id: lead.id,
      command_id: result.commands[0].command_id,
    });
    expect(history.find((m: { kind: string }) => m.kind === 'auto_reply')).toMatchObject({ lead_id: lead.id, command_id: null });
    expect(history.filter((m: { direction: string }) => m.direction === 'outbound')).toHaveLength(1);
    const all = await emails(mine);
    expect(all.find((m: { kind: string }) => m.kind === 'bounce')).toMatchObject({ command_id: null, lead_id: null });
    expect(all.find((m: { message_id: string }) => m.message_id === '<cold-1@elsewhere.io>')).toMatchObject({
      kind: 'message',
      lead_id: null,
      command_id: null,
    });

    // The bounced address goes on the suppression list.
    const suppressed = await call(suppressionsGet, {
      path: `/api/sites/${mine.siteId}/email-suppressions`,
      params: { site_id: mine.siteId },
      headers: mine.user.auth,
    });
    expect(suppressed.body.data).toContainEqual({ email: 'gone@acme-bakeries.io', reason: 'bounced', created_at: expect.any(String) });

    // Idempotent: nothing new the next time, and a sync that starts over stores nothing twice.
    const again = await runWorkflow(mine, 'syncEmails');
    expect(again.result).toMatchObject({ fetched: 0, stored: 0, commands: [] });
    await rows(sql`update email_mailboxes set last_uid = 0 where site_id = ${mine.siteId}`);
    const over = await runWorkflow(mine, 'syncEmails');
    // (The site's scheduled sync may have read them again first: either way nothing is stored twice.)
    expect(over.result).toMatchObject({ stored: 0, commands: [], last_uid: 4 });
    const [{ inbound }] = await rows<{ inbound: number }>(
      sql`select count(*)::int as inbound from email_messages where site_id = ${mine.siteId} and direction = 'inbound'`,
    );
    expect(inbound).toBe(4);
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from commands where site_id = ${mine.siteId} and agent = 'email'`);
    expect(n).toBe(1);
    expect((await call(mailboxGet, site(mine))).body.data).toMatchObject({ last_uid: 4, last_sync_at: expect.any(String), last_error_code: null });
  });

  it('the scheduled sync starts a syncEmails run for each site with a mailbox', async () => {
    expect(mailboxSync.everyMinutes).toBe(15);
    expect((await mailboxSync.sites()).find((s) => s.siteId === mine.siteId)).toEqual({ siteId: mine.siteId, everyMinutes: 15 });
    await mailboxSync.run(mine.siteId, { id: 'test', attempt: 0, retryLimit: 0, signal: new AbortController().signal });
    const listed = await call(logsRoute, {
      path: '/api/logs/workflows',
      headers: presenters.bearer(mine.key),
      query: { site_id: mine.siteId, type: 'syncEmailsWorkflow', limit: 100 },
    });
    expect(listed.status).toBe(200);
    const runs = listed.body.workflows as WorkflowRecord[];
    expect(runs.length).toBeGreaterThanOrEqual(4);
    for (const r of runs) if (r.status === 'RUNNING') await settledRun(mine, r.workflowId);
  });

  it('the email agent’s answer to a reply goes out through the email port, threaded and linked to the lead and the conversation', async () => {
    const lead = await newLead('Bo Carter', 'Carter Mills');
    standIn.queue({ text: 'Flour prices\nHi Bo, a word about flour?' });
    const followUp = await runWorkflow(mine, 'leadFollowUp', { lead_id: lead.id });
    const sentId = (followUp.result as { message_id: string }).message_id;
    const bo = `Bo Carter <${lead.email}>`;
    await deliverReply(bo, sentId, 'Re: Flour prices', '<bo-1@carter-mills.io>', 'Sure, what do you offer?');
    await deliverAutoReply(bo, sentId, 'Auto: away', 'Away.');
    standIn.queue({ text: 'Hi Bo, 10% off on 50 kg bags this month.' });
    // Commands run as agentCommandWorkflow runs of the engine here (the suites' default runs none).
    const restoreDispatcher = overrideProviders({ commandDispatcher: engineDispatcher });
    let sync: WorkflowRecord;
    try {
      sync = await runWorkflow(mine, 'syncEmails');
    } finally {
      restoreDispatcher();
    }
    const { commands } = sync.result as { commands: { email_id: string; command_id: string }[] };
    expect(commands).toHaveLength(1);
    const [{ email_id: emailId, command_id: commandId }] = commands;
    const deadline = Date.now() + 20_000;
    while ((await getCommand(mine.siteId, commandId))?.status !== 'completed') {
      if (Date.now() > deadline) throw new Error(`command ${commandId} not completed`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const command = (await getCommand(mine.siteId, commandId))!;
    const reply = (t: Tenant, id: string, body: Record<string, unknown> = {}) =>
      call(replyRoute, {
        method: 'POST',
        path: `/api/sites/${t.siteId}/emails/${id}/reply`,
        params: { site_id: t.siteId, email_id: id },
        headers: t.user.auth,
        body,
      });

    // Another owner cannot answer the site's mail.
    const stranger = await createTenant();
    expect((await reply(stranger, emailId)).status).toBeGreaterThanOrEqual(403);

    // Sends of the same answer at the same instant: one goes out, the others are refused.
    const all = await Promise.all(Array.from({ length: 6 }, () => reply(mine, emailId)));
    expect(all.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const sent = all.find((r) => r.status === 200)!;
    expect(sent.body.data).toMatchObject({
      transport: 'outbox',
      status: 'stored',
      to: [lead.email],
      message_id: expect.stringMatching(/^<.+@localhost>$/),
    });
    const answer = (await emails(mine, { lead_id: lead.id })).find((m: { id: string }) => m.id === sent.body.data.id);
    expect(answer).toMatchObject({
      direction: 'outbound',
      subject: 'Re: Flour prices',
      in_reply_to: '<bo-1@carter-mills.io>',
      lead_id: lead.id,
      conversation_id: command.conversation_id,
      workflow_id: null,
    });
    expect(answer.text).toContain('10% off on 50 kg bags');
    expect(answer.text).toMatch(/To stop receiving these messages: http:\/\/localhost:3000\/unsubscribe\?token=v1\./);

    // Answered once; a bounce or an automatic reply is never answered; an unknown id is 404.
    expect((await reply(mine, emailId)).body).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
    const auto = (await emails(mine, { lead_id: lead.id })).find(
      (m: { kind: string; subject: string }) => m.kind === 'auto_reply' && m.subject === 'Auto: away',
    );
    expect((await reply(mine, auto.id, { text: 'Hello' })).body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE' } });
    expect((await reply(mine, sent.body.data.id, { text: 'Hello' })).status).toBe(404);
    expect((await reply(mine, emailId, { text: '' })).body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });

    // Over SMTP the answer carries In-Reply-To and References; an unsubscribed sender is never written to.
    await dovecot.deliver(
      account,
      rawMessage({ From: `Bo Carter <${lead.email}>`, To: account, Subject: 'One more thing', 'Message-ID': '<bo-2@carter-mills.io>' }, 'And rye?'),
    );
    const more = await runWorkflow(mine, 'syncEmails');
    const second = (more.result as { commands: { email_id: string }[] }).commands[0].email_id;
    const smtp = await startSmtpStandIn();
    process.env.SMTP_URL = smtp.url;
    resetConfig();
    try {
      const viaSmtp = await reply(mine, second, { text: 'Rye too, yes.' });
      expect(viaSmtp.status, JSON.stringify(viaSmtp.body)).toBe(200);
      expect(viaSmtp.body.data).toMatchObject({ transport: 'smtp', status: 'sent' });
      const mail = await smtp.next(0);
      expect(mail.envelope.to).toEqual([lead.email]);
      expect(mail.parsed.subject).toBe('Re: One more thing');
      expect(mail.parsed.inReplyTo).toBe('<bo-2@carter-mills.io>');
      expect(mail.parsed.references).toBe('<bo-2@carter-mills.io>');
      expect(mail.parsed.text).toContain('Rye too, yes.');
      expect(mail.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/localhost:3000\/api\/email\/unsubscribe\?token=/im);

      await rows(
        sql`insert into email_suppressions (site_id, email, reason, created_at) values (${mine.siteId}, ${lead.email}, 'unsubscribed', now())`,
      );
      await rows(sql`delete from email_messages where site_id = ${mine.siteId} and in_reply_to = '<bo-2@carter-mills.io>'`);
      const refused = await reply(mine, second, { text: 'Once more.' });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE', details: { suppressed: [lead.email] } } });
      expect(smtp.received).toHaveLength(1);
    } finally {
      delete process.env.SMTP_URL;
      resetConfig();
      await smtp.close();
    }
  });

  it('bad credentials: the check says MAILBOX_AUTH_FAILED and the run FAILS with it, the password in no log or record', async () => {
    const t = await createTenant();
    const wrong = `wrong-${randomBytes(8).toString('hex')}`;
    expect((await configure(t, { password: wrong })).status).toBe(200);
    expect((await check(t)).body.data).toMatchObject({ ok: false, code: 'MAILBOX_AUTH_FAILED', messages: null });

    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    process.env.LOG_LEVEL = 'debug';
    resetConfig();
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    let failed: WorkflowRecord;
    try {
      failed = await runWorkflow(t, 'syncEmails');
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.env.LOG_LEVEL = 'silent';
      resetConfig();
    }
    expect(failed.status).toBe('FAILED');
    expect(failed.failure?.message).toMatch(/^MAILBOX_AUTH_FAILED: /);
    expect(JSON.stringify(failed)).not.toContain(wrong);
    expect(written.join('')).not.toContain(wrong);
    expect(written.join('')).not.toContain(password);
    expect((await call(mailboxGet, site(t))).body.data).toMatchObject({ last_error_code: 'MAILBOX_AUTH_FAILED', last_sync_at: null });
  });

  it('an unreachable server: MAILBOX_UNREACHABLE for the check and the run', async () => {
    const t = await createTenant();
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    expect((await configure(t, { port: closed, password })).status).toBe(200);
    expect((await check(t)).body.data).toMatchObject({ ok: false, code: 'MAILBOX_UNREACHABLE' });
    const failed = await runWorkflow(t, 'syncEmails');
    expect(failed.status).toBe('FAILED');
    expect(failed.failure?.message).toMatch(/^MAILBOX_UNREACHABLE: /);
  });

  it('a folder the mailbox does not have: MAILBOX_FOLDER_NOT_FOUND for the check and the run', async () => {
    const t = await createTenant();
    expect((await configure(t, { password, folder: 'Archive-that-is-not-there' })).status).toBe(200);
    expect((await check(t)).body.data).toMatchObject({ ok: false, code: 'MAILBOX_FOLDER_NOT_FOUND', messages: null });
    const failed = await runWorkflow(t, 'syncEmails');
    expect(failed.status).toBe('FAILED');
    expect(failed.failure?.message).toMatch(/^MAILBOX_FOLDER_NOT_FOUND: /);
  });

  it('a host inside the network that is not allow-listed is refused before connecting', async () => {
    const t = await createTenant();
    expect((await configure(t, { host: '10.0.0.1', password })).status).toBe(200);
    expect((await check(t)).body.data).toMatchObject({ ok: false, code: 'MAILBOX_UNREACHABLE', message: expect.stringContaining('non-public') });
  });

  it('a site without a mailbox: the run FAILS with MAILBOX_NOT_CONFIGURED; GET is 404; another owner cannot touch it', async () => {
    const t = await createTenant();
    const failed = await runWorkflow(t, 'syncEmails');
    expect(failed.failure?.message).toMatch(/^MAILBOX_NOT_CONFIGURED: /);
    expect((await call(mailboxGet, site(t))).status).toBe(404);
    const foreign = await call(mailboxGet, { ...site(mine), headers: t.user.auth });
    expect([403, 404]).toContain(foreign.status);
    const foreignDelete = await call(mailboxDelete, { method: 'DELETE', ...site(mine), headers: t.user.auth });
    expect([403, 404]).toContain(foreignDelete.status);
    expect((await call(mailboxGet, site(mine))).status).toBe(200);
  });
});
