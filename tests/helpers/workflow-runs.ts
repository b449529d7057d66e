import { afterAll, beforeAll, expect } from 'vitest';
import { GET as getRunRoute } from '@/app/api/logs/workflows/[workflowId]/route';
import { POST as startRoute } from '@/app/api/workflow/[name]/route';
import { resetConfig } from '@/lib/core/config';
import { overrideProviders } from '@/lib/core/providers';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import type { WorkflowRecord } from '@/lib/workflows/engine';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { presenters } from './auth-matrix';
import { call, type CallResult, type Tenant } from './harness';

/** Workflow runs of a test settle fast: short polls, one quick retry, the loopback pages the fetch steps read. */
export function applyWorkflowTestEnv(): void {
  process.env.WORKFLOW_POLL_SECONDS = '0.5';
  process.env.WORKFLOW_RETRY_DELAY_SECONDS = '1';
  process.env.WORKFLOW_RETRY_LIMIT = '1';
  process.env.WORKFLOW_FETCH_ALLOWED_HOSTS = '127.0.0.1';
  resetConfig();
}

/**
 * The tests of the calling scope start workflows on the embedded engine, with the background
 * worker running their jobs: both started before the tests (after `applyWorkflowTestEnv`), stopped
 * after them. The returned handle holds the engine and the worker (usable from the tests on).
 */
export function useEmbeddedWorkflows(): { engine: EmbeddedEngine; worker: BackgroundWork } {
  const world = {} as { engine: EmbeddedEngine; worker: BackgroundWork };
  let restoreEngine: (() => void) | undefined;
  beforeAll(async () => {
    applyWorkflowTestEnv();
    world.engine = new EmbeddedEngine();
    world.worker = await startBackgroundWork();
    restoreEngine = overrideProviders({ workflowEngine: world.engine });
  });
  afterAll(async () => {
    restoreEngine?.();
    await world.worker?.stop();
  });
  return world;
}

/** POST /api/workflow/{name} with the tenant's key (Bearer unless `headers` say otherwise) and its site. */
export function startWorkflow(
  t: Tenant,
  name: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = presenters.bearer(t.key),
): Promise<CallResult> {
  return call(startRoute, { method: 'POST', path: `/api/workflow/${name}`, params: { name }, headers, body: { site_id: t.siteId, ...body } });
}

/** The run once it is no longer RUNNING, read through GET /api/logs/workflows/{workflowId} (fails after 20 s). */
export async function settledRun(t: Tenant, workflowId: string): Promise<WorkflowRecord> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await call(getRunRoute, {
      path: `/api/logs/workflows/${workflowId}`,
      params: { workflowId },
      headers: presenters.bearer(t.key),
      query: { site_id: t.siteId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.data.status !== 'RUNNING') return res.body.data;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} still running`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts a workflow (202) and answers its run once settled. */
export async function runWorkflow(t: Tenant, name: string, body: Record<string, unknown> = {}): Promise<WorkflowRecord> {
  const res = await startWorkflow(t, name, body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return settledRun(t, res.body.workflowId);
}
