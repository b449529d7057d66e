import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRunRoute } from '@/app/api/logs/workflows/[workflowId]/route';
import { POST as startRoute } from '@/app/api/workflow/[name]/route';
import { getConversation } from '@/lib/agents/service';
import { listCommands } from '@/lib/commands/service';
import { overrideProviders } from '@/lib/core/providers';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import type { WorkflowRecord } from '@/lib/workflows/engine';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { applyWorkflowTestEnv } from './behaviour';

/** Workflow steps that need a model run on the agents' model port (here the local OpenAI-compatible stand-in). */
let engine: EmbeddedEngine;
let worker: BackgroundWork;
let standIn: LlmStandIn;
let restoreModel: () => void;
let restoreEngine: () => void;
let mine: Tenant;
beforeAll(async () => {
  applyWorkflowTestEnv();
  standIn = await startLlmStandIn();
  restoreModel = useStandIn(standIn);
  engine = new EmbeddedEngine();
  worker = await startBackgroundWork();
  restoreEngine = overrideProviders({ workflowEngine: engine });
  mine = await createTenant();
});
afterAll(async () => {
  restoreEngine?.();
  await worker?.stop();
  restoreModel?.();
  await standIn?.close();
});

async function settle(workflowId: string): Promise<WorkflowRecord> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await call(getRunRoute, {
      path: `/api/logs/workflows/${workflowId}`,
      params: { workflowId },
      headers: presenters.bearer(mine.key),
      query: { site_id: mine.siteId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.data.status !== 'RUNNING') return res.body.data;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} still running`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('workflows with a configured model', () => {
  it('agentMessage completes with the model answer, asked with the site in its system prompt', async () => {
    standIn.queue({ text: 'Post twice a week on LinkedIn.' });
    const res = await call(startRoute, {
      method: 'POST',
      path: '/api/workflow/agentMessage',
      params: { name: 'agentMessage' },
      headers: presenters.bearer(mine.key),
      body: { site_id: mine.siteId, message: 'How often should we post?' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = await settle(res.body.workflowId);
    expect(run).toMatchObject({
      status: 'COMPLETED',
      type: 'agentMessageWorkflow',
      result: {
        agent: 'cmo',
        answer: 'Post twice a week on LinkedIn.',
        status: 'completed',
        conversation_id: expect.any(String),
        command_id: expect.any(String),
      },
    });
    const asked = standIn.requests.at(-1)!;
    expect(textOf(asked.messages.find((m) => m.role === 'user'))).toContain('How often should we post?');
    expect(textOf(asked.messages.find((m) => m.role === 'system'))).toContain('Test site');
    // Where the product says: the conversation with both turns, and the command.
    const result = run.result as { conversation_id: string; command_id: string };
    const conversation = await getConversation(mine.siteId, result.conversation_id);
    expect(conversation).toMatchObject({ agent: 'cmo' });
    expect(conversation!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How often should we post?'],
      ['assistant', 'Post twice a week on LinkedIn.'],
    ]);
    const { items } = await listCommands(mine.siteId, { limit: 10, offset: 0 });
    expect(items.find((c) => c.command_id === result.command_id)).toMatchObject({
      status: 'completed',
      agent: 'cmo',
      conversation_id: result.conversation_id,
    });

    // The same conversation goes on with its agent; an unknown agent or another site's conversation is refused before the run.
    standIn.queue({ text: 'Yes, on Tuesdays.' });
    const next = await call(startRoute, {
      method: 'POST',
      path: '/api/workflow/agentMessage',
      params: { name: 'agentMessage' },
      headers: presenters.bearer(mine.key),
      body: { site_id: mine.siteId, message: 'Any day?', conversation_id: result.conversation_id },
    });
    expect((await settle(next.body.workflowId)).result).toMatchObject({ conversation_id: result.conversation_id, answer: 'Yes, on Tuesdays.' });
    expect((await getConversation(mine.siteId, result.conversation_id))!.messages).toHaveLength(4);
    for (const body of [
      { message: 'x', agent_id: 'nobody' },
      { message: 'x', conversation_id: '00000000-0000-4000-8000-000000000000' },
      { message: 'x', conversation_id: result.conversation_id, agent_id: 'sales' },
    ]) {
      const refused = await call(startRoute, {
        method: 'POST',
        path: '/api/workflow/agentMessage',
        params: { name: 'agentMessage' },
        headers: presenters.bearer(mine.key),
        body: { site_id: mine.siteId, ...body },
      });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('a model that keeps failing fails the run with its reason, after the step retries', async () => {
    standIn.queue(
      { status: 500, message: 'overloaded' },
      { status: 500, message: 'overloaded' },
      { status: 500, message: 'overloaded' },
      { status: 500, message: 'overloaded' },
    );
    const res = await call(startRoute, {
      method: 'POST',
      path: '/api/workflow/agentMessage',
      params: { name: 'agentMessage' },
      headers: presenters.bearer(mine.key),
      body: { site_id: mine.siteId, message: 'Hello?' },
    });
    const run = await settle(res.body.workflowId);
    expect(run.status).toBe('FAILED');
    expect(run.failure?.message).toMatch(/overloaded/);
  });
});
