import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { POST as createRoute } from '@/app/api/sequences/route';
import { resetConfig } from '@/lib/core/config';
import { database, getDb } from '@/lib/db/client';
import { sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';
import { findTemporalCli, missingCliMessage, startTemporalDevServer } from '@/tests/helpers/temporal-server';

/**
 * A step is sent at most once when the worker dies in the middle of sending it: the worker
 * process (`npm run worker`'s entry, scripts/worker.ts) sends the first step of an enrollment to
 * the SMTP stand-in, which holds its DATA reply; the test kills the worker with SIGKILL there, and
 * starts a new one. The step reached the server once and is never sent again (its claim was
 * written before the send: the step is recorded `failed`, as the at-most-once rule says), and
 * the enrollment goes on: the next step goes out, once, and the enrollment completes. On both
 * engines: the embedded one (the step's job expires and runs again on the new worker) and
 * Temporal (a real dev server; the send activity times out and is retried on the new worker).
 *
 * Postgres only: a worker process beside the app shares its database (`npm run worker` requires
 * DATABASE_URL; the embedded database serves one process).
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const TIMING = { SEQUENCE_STEP_TIMEOUT_SECONDS: '4', SEQUENCE_STEP_RETRY_DELAY_SECONDS: '1' };
const children: ChildProcess[] = [];

/** The worker entry in its own process; resolves once it works its queues (and polls Temporal, when configured). */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  // Node itself with tsx's loader, so the pid killed is the worker's (the tsx CLI would add a parent process).
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, ...env, ...TIMING, DATABASE_POOL_MAX: '4', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker never said it started')), 150_000);
    child.once('exit', (code, signal) => reject(new Error(`the worker exited (${signal ?? code}) before it started`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"worker started"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

async function stopWorker(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

describe.skipIf(!onPostgres)('a worker killed with SIGKILL in the middle of sending a step', () => {
  let smtp: SmtpStandIn;
  let t: Tenant;
  let databaseUrl: string;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    // The queue's expiry and retry delay are fixed when this process first sends to it.
    Object.assign(process.env, TIMING);
    resetConfig();
    const db = await database();
    const [{ name }] = await db.sql.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    t = await createTenant();
  });
  afterAll(async () => {
    for (const child of children) await stopWorker(child, 'SIGKILL');
    for (const name of Object.keys(TIMING)) delete process.env[name];
    resetConfig();
    await smtp?.close();
  });

  const workerEnv = () => ({ DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, EMAIL_FROM: 'Shop <hello@shop.example.com>' });

  /** A two-step sequence (the second due right after the first) with one lead enrolled; answers the lead's address and the enrollment. */
  async function enrollOne(): Promise<{ email: string; enrollmentId: string }> {
    const created = await call(createRoute, {
      method: 'POST',
      path: '/api/sequences',
      headers: { authorization: `Bearer ${t.key}` },
      body: {
        site_id: t.siteId,
        name: `Fault ${randomBytes(3).toString('hex')}`,
        steps: [
          { delay_minutes: 0, subject: 'Hi {{first_name}}', body: 'Hello {{first_name}}.' },
          { delay_minutes: 0, subject: 'Following up', body: 'Any thoughts?' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    const lead = await call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: { authorization: `Bearer ${t.key}` },
      body: { site_id: t.siteId, name: 'Ada Lovelace', email: `ada-${randomBytes(4).toString('hex')}@acme.example.com` },
    });
    const res = await call(enrollRoute, {
      method: 'POST',
      path: `/api/sequences/${id}/enrollments`,
      params: { id },
      headers: { authorization: `Bearer ${t.key}` },
      body: { site_id: t.siteId, lead_ids: [lead.body.lead.id] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { email: lead.body.lead.email, enrollmentId: res.body.data.enrollments[0].id };
  }

  /** The story on the configured engine (`env` adds the worker's engine settings). */
  async function killMidSend(env: Record<string, string>): Promise<void> {
    const first = await startWorker({ ...workerEnv(), ...env });
    const held = smtp.holdNext();
    const { email, enrollmentId } = await enrollOne();
    const mail = await held.arrived;
    expect(mail.envelope.to).toEqual([email]);
    // The worker waits for the server's answer to its DATA: it dies there.
    await stopWorker(first, 'SIGKILL');
    held.release();
    const db = await getDb();
    const messages = () => db.select().from(sequenceMessages).where(eq(sequenceMessages.enrollmentId, enrollmentId)).orderBy(sequenceMessages.step);
    expect((await messages()).map((m) => [m.step, m.status])).toEqual([[0, 'sending']]);

    const second = await startWorker({ ...workerEnv(), ...env });
    const seen = smtp.received.indexOf(mail) + 1;
    const next = await smtp.next(seen);
    expect(next.envelope.to).toEqual([email]);
    expect(next.parsed.subject).toBe('Following up');
    for (;;) {
      const [row] = await db.select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, enrollmentId));
      if (row.status !== 'active') {
        expect(row).toMatchObject({ status: 'completed', nextStep: 2 });
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each step reached the server once: the one cut short is recorded failed (it may have left), never sent again.
    expect(smtp.received.filter((m) => m.envelope.to.includes(email)).map((m) => m.parsed.subject)).toEqual(['Hi Ada', 'Following up']);
    expect((await messages()).map((m) => [m.step, m.status])).toEqual([
      [0, 'failed'],
      [1, 'sent'],
    ]);
    await stopWorker(second, 'SIGTERM');
  }

  it('embedded engine: the step job runs again on a new worker and sends nothing twice', async () => {
    await killMidSend({});
  }, 240_000);

  const cli = findTemporalCli();
  if (!cli && process.env.CI === 'true') throw new Error(`The Temporal fault case is required under CI=true, but ${missingCliMessage()}`);

  it.skipIf(!cli)(
    'Temporal engine: the send activity is retried on a new worker and sends nothing twice',
    async () => {
      const server = await startTemporalDevServer(cli!);
      const env = {
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: server.namespace,
        TEMPORAL_TASK_QUEUE: `fault-${randomBytes(6).toString('hex')}`,
      };
      // This process enrolls: on Temporal its schedule starts the enrollment's workflow.
      Object.assign(process.env, env);
      resetConfig();
      try {
        await killMidSend(env);
      } finally {
        for (const name of Object.keys(env)) delete process.env[name];
        resetConfig();
        for (const child of children.splice(0)) await stopWorker(child, 'SIGKILL');
        await server.stop();
      }
    },
    400_000,
  );
});
