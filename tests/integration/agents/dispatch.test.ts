import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { engineDispatcher } from '@/lib/agents/dispatch';
import { carryOutCommand } from '@/lib/agents/execute';
import { claimCommand, listCommands } from '@/lib/commands/repo';
import { overrideProviders } from '@/lib/core/providers';
import type { WorkflowEngine } from '@/lib/workflows/engine';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';

/**
 * Handing commands to the workflow engine, where it can go wrong (the runs themselves are in the
 * engine-neutral suite, tests/integration/workflows/behaviour.ts, on both engines).
 */
let mine: Tenant;
let standIn: LlmStandIn;
let restore: () => void;
beforeAll(async () => {
  standIn = await startLlmStandIn();
  restore = useStandIn(standIn);
  mine = await createTenant();
});
afterAll(async () => {
  restore?.();
  await standIn?.close();
});

const message = (text: string) =>
  call(cmoMessage, {
    method: 'POST',
    path: '/api/agents/cmo/message',
    headers: presenters.bearer(mine.key),
    body: { site_id: mine.siteId, message: text },
  });

describe('agent command dispatch', () => {
  it('a command left running by a process that died is recorded as interrupted, not run again', async () => {
    const id = (await message('left behind')).body.data.command_id as string;
    // Claimed by the run's earlier attempt, whose worker is gone: the step runs again.
    expect(await claimCommand(mine.siteId, id, new Date(Date.now() - 120_000))).toBeDefined();
    const asked = standIn.requests.length;
    expect(await carryOutCommand(mine.siteId, id)).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    expect(standIn.requests.length).toBe(asked);
  });

  it('a command the engine cannot take is answered with an error and recorded as failed, not left pending', async () => {
    const broken = { start: () => Promise.reject(new Error('engine down')) } as unknown as WorkflowEngine;
    const restoreEngine = overrideProviders({ workflowEngine: broken, commandDispatcher: engineDispatcher });
    try {
      const res = await message('nowhere to go');
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ success: false, error: { code: 'WORKFLOW_EXECUTION_ERROR' } });
    } finally {
      restoreEngine();
    }
    const newest = await listCommands(mine.siteId, { limit: 1, offset: 0 });
    expect(newest.items[0]).toMatchObject({ status: 'failed', error: { code: 'WORKFLOW_EXECUTION_ERROR' } });
    expect((await listCommands(mine.siteId, { limit: 1, offset: 0, status: 'pending' })).total).toBe(0);
  });
});
