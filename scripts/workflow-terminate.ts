/**
 * Ends a running workflow run at once (→ TERMINATED), with a reason recorded in its failure.
 * Operators only; the API offers cancel.
 *
 *   npm run workflow:terminate -- <site_id> <workflowId> "<reason>"
 *
 * Uses the configured database and engine (with PGlite, stop the server first).
 */
import { resetProviders } from '@/lib/core/providers';
import { workflowEngine } from '@/lib/workflows/engines';

async function main() {
  const [siteId, workflowId, reason] = process.argv.slice(2);
  if (!siteId || !workflowId || !reason) throw new Error('usage: workflow-terminate <site_id> <workflowId> "<reason>"');
  const engine = workflowEngine();
  try {
    const run = await engine.get(siteId, workflowId);
    if (!run) throw new Error(`no run ${workflowId} on site ${siteId}`);
    if (run.status !== 'RUNNING') throw new Error(`run ${workflowId} already ended (${run.status})`);
    await engine.terminate(siteId, workflowId, reason);
    console.log(`run ${workflowId}: TERMINATED`);
  } finally {
    await resetProviders();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
