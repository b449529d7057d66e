/**
 * The product's worker in its own process, for the crash suite (tests/integration/jobs/fault.test.ts),
 * on the configured database (DATABASE_URL, or PGlite under DATA_DIR): the real background jobs —
 * workflow runs (the catalog plus a probe workflow), webhook deliveries, command deadlines,
 * robot expiry, retention — and a probe queue job, with the real activities (model calls go to
 * LLM_BASE_URL).
 *
 * Probes count their side effects in `fault_effects`; their first execution lingers (and says so
 * on stdout: `job-started`, `slow-started`) so the suite can kill the process in the middle.
 *
 * FAULT_SEED=<receiver url>: first seed a site with a webhook endpoint at that URL and one
 * lead.created event, an agent command (its run started), a probe run and a probe job; prints
 * `seeded {json}`.
 * FAULT_WATCH=<json of the seed>: print `summary {json}` and exit once every one of them ended.
 */
import { randomBytes } from 'node:crypto';
import { dispatchCommand, engineDispatcher } from '@/lib/agents/dispatch';
import { commandDeadline } from '@/lib/agents/jobs';
import { openCommand } from '@/lib/agents/repo';
import { overrideProviders } from '@/lib/core/providers';
import { database, getDb } from '@/lib/db/client';
import { defineJob } from '@/lib/jobs/define';
import { closeQueueClient, enqueue } from '@/lib/jobs/queue';
import { robotExpiry } from '@/lib/robots/jobs';
import { deliverWebhook } from '@/lib/webhooks/jobs';
import { recordEvent, createEndpoint } from '@/lib/webhooks/service';
import { startBackgroundWork } from '@/lib/worker';
import { createActivities } from '@/lib/worker/activities';
import { retention } from '@/lib/worker/retention';
import type { WorkflowContext } from '@/lib/workflows/definition';
import { workflowDefinitions } from '@/lib/workflows/definitions';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { workflowRunJob } from '@/lib/workflows/engines/embedded/run-job';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function effects(): Promise<Record<string, number>> {
  const db = await database();
  const rows = await db.sql.query<{ label: string; n: number }>('select label, count(*)::int as n from fault_effects group by label');
  return Object.fromEntries(rows.map((r) => [r.label, r.n]));
}

async function effect(label: string): Promise<number> {
  const db = await database();
  await db.sql.query('insert into fault_effects (label) values ($1)', [label]);
  return (await effects())[label];
}

/** Lingers the first time (`label` counted once before), so the suite can kill the worker inside. */
async function linger(label: string): Promise<void> {
  const before = (await effects())[label] ?? 0;
  await effect(label);
  say(label);
  if (before === 0) await new Promise((r) => setTimeout(r, 120_000));
}

interface ProbeActivities {
  recordEffect(siteId: string, label: string): Promise<number>;
  slowStep(siteId: string): Promise<string>;
}

const probeActivities: ProbeActivities = {
  recordEffect: (_siteId, label) => effect(label),
  async slowStep() {
    await linger('slow-started');
    return 'slow-done';
  },
};

export async function faultProbeWorkflow(ctx: WorkflowContext<ProbeActivities>) {
  const first = await ctx.activities.recordEffect(ctx.siteId, 'first');
  const slow = await ctx.activities.slowStep(ctx.siteId);
  const last = await ctx.activities.recordEffect(ctx.siteId, 'last');
  return { first, slow, last };
}

const probeJob = defineJob<{ label: string }>({
  name: 'fault-probe',
  options: () => ({ expireInSeconds: 3, retryLimit: 3, retryDelaySeconds: 1 }),
  async run() {
    await linger('job-started');
    await effect('job-done');
  },
});

interface Seed {
  siteId: string;
  eventId: string;
  commandId: string;
  runId: string;
  workflowId: string;
}

async function seed(receiverUrl: string, engine: EmbeddedEngine): Promise<Seed> {
  const db = await database();
  await db.sql.exec('create table if not exists fault_effects (id serial primary key, label text not null, at timestamptz not null default now())');
  const [user] = await db.sql.query<{ id: string }>(`insert into users (email, password_hash) values ($1, 'x') returning id`, [
    `fault-${randomBytes(4).toString('hex')}@acme.io`,
  ]);
  const [site] = await db.sql.query<{ id: string }>(`insert into sites (owner_id, name) values ($1, 'Fault') returning id`, [user.id]);
  await createEndpoint(site.id, { url: receiverUrl, events: ['lead.created'] });
  const eventId = (await (await getDb()).transaction((tx) => recordEvent(tx as never, site.id, 'lead.created', { lead: { email: 'ada@acme.io' } })))!;
  const { command } = await openCommand(site.id, {
    agent: 'cmo',
    userContent: 'Plan the quarter',
    task: 'plan',
    description: 'Plan the quarter',
    parameters: {},
    keyId: null,
    keyScopes: ['read', 'write'],
    now: new Date(),
  });
  await dispatchCommand(site.id, command.id);
  const workflowId = `fault-probe-${site.id}-${Date.now()}-00000000`;
  const { runId } = await engine.start({ siteId: site.id, type: 'faultProbeWorkflow', workflowId, input: {} });
  await enqueue(probeJob, { label: 'probe' });
  return { siteId: site.id, eventId, commandId: command.id, runId, workflowId };
}

async function summary(s: Seed) {
  const db = await database();
  const [run] = await db.sql.query<{ status: string; result: unknown }>('select status, result from workflow_runs where run_id = $1', [s.runId]);
  const [command] = await db.sql.query<{ status: string; error: { code: string } | null }>('select status, error from commands where id = $1', [
    s.commandId,
  ]);
  const [commandRun] = await db.sql.query<{ status: string }>(
    `select status from workflow_runs where site_id = $1 and type = 'agentCommandWorkflow'`,
    [s.siteId],
  );
  const [delivery] = await db.sql.query<{ status: string; attempts: number }>('select status, attempts from webhook_deliveries where event_id = $1', [
    s.eventId,
  ]);
  return { run, command, commandRun, delivery, effects: await effects() };
}

const done = (x: Awaited<ReturnType<typeof summary>>) =>
  x.run?.status !== 'RUNNING' && x.commandRun?.status !== 'RUNNING' && x.delivery?.status !== 'pending' && (x.effects['job-done'] ?? 0) > 0;

async function main() {
  await database();
  overrideProviders({ commandDispatcher: engineDispatcher });
  const engine = new EmbeddedEngine();
  const activities = { ...createActivities(), ...probeActivities };
  const worker = await startBackgroundWork({
    jobs: [
      deliverWebhook,
      robotExpiry,
      commandDeadline,
      retention,
      probeJob,
      workflowRunJob({ definitions: { ...workflowDefinitions, faultProbeWorkflow }, activities }),
    ],
  });
  say('worker ready');
  if (process.env.FAULT_SEED) say(`seeded ${JSON.stringify(await seed(process.env.FAULT_SEED, engine))}`);
  if (process.env.FAULT_WATCH) {
    const s = JSON.parse(process.env.FAULT_WATCH) as Seed;
    for (;;) {
      const x = await summary(s);
      if (done(x)) {
        await worker.stop();
        await closeQueueClient();
        await (await database()).close();
        say(`summary ${JSON.stringify(x)}`);
        process.exit(0);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
