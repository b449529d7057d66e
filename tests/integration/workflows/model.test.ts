import { beforeAll, describe, expect, it } from 'vitest';
import { getConversation } from '@/lib/agents/service';
import { listCommands } from '@/lib/commands/service';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { textOf, useModelForFile } from '@/tests/helpers/llm-standin';
import { settledRun, startWorkflow, useEmbeddedWorkflows } from '@/tests/helpers/workflow-runs';

/** Workflow steps that need a model run on the agents' model port (here the local OpenAI-compatible stand-in). */
const standIn = useModelForFile();
useEmbeddedWorkflows();
let mine: Tenant;
beforeAll(async () => {
  mine = await createTenant();
});

describe('workflows with a configured model', () => {
  it('agentMessage completes with the model answer, asked with the site in its system prompt', async () => {
    standIn.queue({ text: 'Post twice a week on LinkedIn.' });
    const res = await startWorkflow(mine, 'agentMessage', { message: 'How often should we post?' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = await settledRun(mine, res.body.workflowId);
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
    const next = await startWorkflow(mine, 'agentMessage', { message: 'Any day?', conversation_id: result.conversation_id });
    expect((await settledRun(mine, next.body.workflowId)).result).toMatchObject({
      conversation_id: result.conversation_id,
      answer: 'Yes, on Tuesdays.',
    });
    expect((await getConversation(mine.siteId, result.conversation_id))!.messages).toHaveLength(4);
    for (const body of [
      { message: 'x', agent_id: 'nobody' },
      { message: 'x', conversation_id: '00000000-0000-4000-8000-000000000000' },
      { message: 'x', conversation_id: result.conversation_id, agent_id: 'sales' },
    ]) {
      const refused = await startWorkflow(mine, 'agentMessage', { ...body });
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
    const res = await startWorkflow(mine, 'agentMessage', { message: 'Hello?' });
    const run = await settledRun(mine, res.body.workflowId);
    expect(run.status).toBe('FAILED');
    expect(run.failure?.message).toMatch(/overloaded/);
  });
});
