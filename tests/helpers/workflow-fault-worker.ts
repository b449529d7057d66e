/**
 * A workflow worker in its own process, for the crash test (tests/integration/workflows/fault.test.ts):
 * the embedded engine on the configured database (DATABASE_URL, or PGlite under DATA_DIR) with one
 * probe workflow whose steps count their side effects in `workflow_fault_effects`. The first
 * execution of the slow step lingers (and says so on stdout) so the test can kill the process in
 * the middle of it.
 *
 * FAULT_START_SITE=<site id>: also start a probe run (printed as `run <workflowId>`).
 * FAULT_EXIT_WHEN_DONE=<workflowId>: exit once that run ended (printed as `ended <status>`), so a
 * PGlite data directory is free for the test to read.
 */
import { database } from '@/lib/db/client';
import type { WorkflowContext } from '@/lib/workflows/definition';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';

interface ProbeActivities {
  recordEffect(siteId: string, label: string): Promise<number>;
  slowStep(siteId: string): Promise<string>;
}

async function count(label: string): Promise<number> {
  const db = await database();
  const [row] = await db.sql.query<{ n: number }>('select count(*)::int as n from workflow_fault_effects where label = $1', [label]);
  return row.n;
}

const activities: ProbeActivities = {
  async recordEffect(_siteId, label) {
    const db = await database();
    await db.sql.query('insert into workflow_fault_effects (label) values ($1)', [label]);
    return count(label);
  },
  async slowStep() {
    const db = await database();
    const before = await count('slow-started');
    await db.sql.query("insert into workflow_fault_effects (label) values ('slow-started')");
    process.stdout.write('slow-started\n');
    await new Promise((r) => setTimeout(r, before === 0 ? 120_000 : 10));
    return 'slow-done';
  },
};

export async function faultProbeWorkflow(ctx: WorkflowContext<ProbeActivities>) {
  const first = await ctx.activities.recordEffect(ctx.siteId, 'first');
  const slow = await ctx.activities.slowStep(ctx.siteId);
  const last = await ctx.activities.recordEffect(ctx.siteId, 'last');
  return { first, slow, last };
}

async function main() {
  const engine = new EmbeddedEngine({ definitions: { faultProbeWorkflow }, activities, concurrency: 1 });
  await engine.startWorker();
  process.stdout.write('worker ready\n');
  const siteId = process.env.FAULT_START_SITE;
  if (siteId) {
    const { workflowId } = await engine.start({ siteId, type: 'faultProbeWorkflow', workflowId: `fault-probe-${siteId}-${Date.now()}-00000000`, input: {} });
    process.stdout.write(`run ${workflowId}\n`);
  }
  const awaited = process.env.FAULT_EXIT_WHEN_DONE;
  if (awaited && siteId === undefined) {
    const owner = process.env.FAULT_SITE!;
    for (;;) {
      const run = await engine.get(owner, awaited);
      if (run && run.status !== 'RUNNING') {
        await engine.close();
        await (await database()).close();
        process.stdout.write(`ended ${run.status}\n`);
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
