import { beforeAll, describe, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { GET as getConversation } from '@/app/api/agents/conversations/[conversation_id]/route';
import { GET as listConversations } from '@/app/api/agents/conversations/route';
import { POST as salesMessage } from '@/app/api/agents/sales/message/route';
import { presenters } from '@/tests/helpers/auth-matrix';
import { runCommands, useCommandRuns } from '@/tests/helpers/commands';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { textOf, useModelForFile } from '@/tests/helpers/llm-standin';

// Commands run through the engine dispatcher and the worker, when a test says so.
useCommandRuns();

const standIn = useModelForFile();
let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const send = (handler: typeof cmoMessage, t: Tenant, body: Record<string, unknown>) =>
  call(handler, { method: 'POST', path: '/api/agents/x/message', headers: presenters.bearer(t.key), body: { site_id: t.siteId, ...body } });
const list = (t: Tenant, query: Record<string, string | number | undefined> = {}) =>
  call(listConversations, { path: '/api/agents/conversations', query: { site_id: t.siteId, ...query }, headers: presenters.bearer(t.readKey) });
const get = (t: Tenant, conversationId: string) =>
  call(getConversation, {
    path: `/api/agents/conversations/${conversationId}`,
    params: { conversation_id: conversationId },
    query: { site_id: t.siteId },
    headers: presenters.bearer(t.readKey),
  });

describe('conversations', () => {
  it('continues a conversation: the agent reads the earlier turns, and both turns are stored in order', async () => {
    standIn.queue({ text: 'Nice to meet you, Ana.' });
    const first = await send(cmoMessage, mine, { message: 'My name is Ana.' });
    await runCommands();
    standIn.queue({ text: 'You are Ana.' });
    const second = await send(cmoMessage, mine, { message: 'Who am I?', conversation_id: first.body.data.conversation_id });
    expect(second.body.data.conversation_id).toBe(first.body.data.conversation_id);
    await runCommands();
    expect(standIn.requests[1].messages.filter((m) => m.role !== 'system').map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'My name is Ana.'],
      ['assistant', 'Nice to meet you, Ana.'],
      ['user', 'Who am I?'],
    ]);
    const conversation = await get(mine, first.body.data.conversation_id);
    expect(conversation.status).toBe(200);
    expect(conversation.body.data.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      'user:My name is Ana.',
      'assistant:Nice to meet you, Ana.',
      'user:Who am I?',
      'assistant:You are Ana.',
    ]);
    expect(conversation.body.data.messages[3]).toMatchObject({
      message_id: expect.any(String),
      command_id: second.body.data.command_id,
      created_at: expect.any(String),
    });
  });

  it("refuses another site's conversation (404) and another agent's (400), writing nothing", async () => {
    const theirs = await send(cmoMessage, other, { message: 'secret plans' });
    const ours = await send(cmoMessage, mine, { message: 'ours' });
    const foreign = await send(cmoMessage, mine, { message: 'peek', conversation_id: theirs.body.data.conversation_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    const otherAgent = await send(salesMessage, mine, { message: 'switch', conversation_id: ours.body.data.conversation_id });
    expect(otherAgent.status).toBe(400);
    expect(otherAgent.body.error.message).toContain('cmo');
    await runCommands();
    expect((await get(other, theirs.body.data.conversation_id)).body.data.messages.map((m: { content: string }) => m.content)).toEqual([
      'secret plans',
      'Echo: secret plans',
    ]);
    expect((await get(mine, ours.body.data.conversation_id)).body.data.messages).toHaveLength(2);
  });

  it("lists only the site's conversations, latest first, paged and filtered by agent; another site's by id is 404", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await send(cmoMessage, a, { message: 'first' });
    await send(salesMessage, a, { message: 'second' });
    await send(cmoMessage, a, { message: 'third' });
    const hidden = await send(cmoMessage, b, { message: 'not yours' });
    const all = await list(a);
    expect(all.status).toBe(200);
    expect(all.body.data.map((c: { title: string }) => c.title)).toEqual(['third', 'second', 'first']);
    expect(all.body.data.every((c: { site_id: string }) => c.site_id === a.siteId)).toBe(true);
    expect(all.body.meta).toEqual({ total: 3, limit: 20, offset: 0, has_more: false });
    const page = await list(a, { limit: 1, offset: 1 });
    expect(page.body.data.map((c: { title: string }) => c.title)).toEqual(['second']);
    expect(page.body.meta.has_more).toBe(true);
    const sales = await list(a, { agent: 'sales' });
    expect(sales.body.data.map((c: { agent: string }) => c.agent)).toEqual(['sales']);
    const foreign = await get(a, hidden.body.data.conversation_id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await get(a, '6f1c7a43-0b7e-4d38-9d1e-2a0b1b1f9e11')).status).toBe(404);
    for (const query of [{ limit: 0 }, { limit: 101 }, { agent: 'ceo' }, { extra: 1 }]) {
      expect((await list(a, query)).status).toBe(400);
    }
    await runCommands();
  });
});
