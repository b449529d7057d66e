import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { overrideProviders } from '@/lib/core/providers';
import type { WorkflowEngine } from '@/lib/workflows/engine';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startWorkflow } from '@/tests/helpers/workflow-runs';

/**
 * What the API answers when the engine itself fails (database or Temporal unreachable): the
 * spec's codes, a generic message, never the cause. The engine slot holds a stand-in whose every
 * call fails the way an unreachable engine does.
 */
const unreachable = (): never => {
  throw new Error('connect ECONNREFUSED 10.0.0.9:7233 (internal detail)');
};
const broken: WorkflowEngine = {
  kind: 'embedded',
  start: async () => unreachable(),
  startWithinCap: async () => unreachable(),
  list: async () => unreachable(),
  get: async () => unreachable(),
  cancel: async () => unreachable(),
  terminate: async () => unreachable(),
  signal: async () => unreachable(),
  findByIdempotencyKey: async () => unreachable(),
  countRunning: async () => unreachable(),
  close: async () => undefined,
};

describe('workflow routes when the engine fails', () => {
  let t: Tenant;
  let restore: () => void;
  beforeAll(async () => {
    t = await createTenant();
    restore = overrideProviders({ workflowEngine: broken });
  });
  afterAll(() => restore?.());

  it('start → 500 WORKFLOW_EXECUTION_ERROR, code also at the top level', async () => {
    const res = await startWorkflow(t, 'dailyStandUp');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      success: false,
      code: 'WORKFLOW_EXECUTION_ERROR',
      error: { code: 'WORKFLOW_EXECUTION_ERROR', message: 'The workflow could not be started', request_id: expect.any(String) },
    });
  });

  it('logs → 500 WORKFLOW_QUERY_ERROR without the cause', async () => {
    const res = await call(logsRoute, { path: '/api/logs/workflows', headers: presenters.bearer(t.key), query: { site_id: t.siteId } });
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'WORKFLOW_QUERY_ERROR', message: 'The workflow runs could not be read', request_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
  });
});
