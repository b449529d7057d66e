/**
 * A workflow worker in its own process, for the crash test (tests/integration/workflows/fault.test.ts):
 * the embedded engine on DATABASE_URL with one probe workflow whose steps count their side effects
 * in `workflow_fault_effects`. The first execution of the slow step lingers so the test can kill
 * the process in the middle of it.
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

const engine = new EmbeddedEngine({ definitions: { faultProbeWorkflow }, activities, concurrency: 1 });
engine.startWorker().then(
  () => process.stdout.write('worker ready\n'),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
