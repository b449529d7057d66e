import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getConversation } from '@/app/api/agents/conversations/[conversation_id]/route';
import { POST as ownerMessage } from '@/app/api/sites/[site_id]/conversations/[conversation_id]/messages/route';
import { POST as startConversation } from '@/app/api/sites/[site_id]/conversations/route';
import { listCommands } from '@/lib/commands/service';
import { messageCmo } from '@/tests/helpers/agents';
import { presenters } from '@/tests/helpers/auth-matrix';
import { runCommands, useCommandRuns } from '@/tests/helpers/commands';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';

// Commands run through the engine dispatcher and the worker, when a test says so.
useCommandRuns();

/** The site's owner, signed in (the console), writing in one of the site's conversations with an agent. */
const standIn = useModelForFile();
let mine: Tenant;
let other: Tenant;
let conversationId = '';

beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  standIn.queue({ text: 'Hello from the CMO.' });
  const started = await messageCmo(mine, 'Hi');
  conversationId = started.body.data.conversation_id;
  await runCommands();
});

const messages = async (t: Tenant, id: string) =>
  (
    await call(getConversation, {
      path: `/api/agents/conversations/${id}`,
      params: { conversation_id: id },
      query: { site_id: t.siteId },
      headers: presenters.bearer(t.readKey),
    })
  ).body.data?.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`);

const send = (t: Tenant, siteId: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
  call(ownerMessage, {
    method: 'POST',
    path: `/api/sites/${siteId}/conversations/${id}/messages`,
    params: { site_id: siteId, conversation_id: id },
    headers: { ...t.user.auth, ...headers },
    body,
  });

describe('POST /api/sites/{site_id}/conversations/{conversation_id}/messages', () => {
  it("streams the agent's reply to the owner and records both turns in the conversation", async () => {
    standIn.queue({ text: 'Your best channel is the newsletter.' });
    const req = new Request(`http://localhost:3000/api/sites/${mine.siteId}/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { ...mine.user.auth, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'Which channel works best?' }),
    });
    const res = await ownerMessage(req, { params: Promise.resolve({ site_id: mine.siteId, conversation_id: conversationId }) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^event: accepted\n/);
    const deltas = [...text.matchAll(/^event: delta\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]).text).join('');
    expect(deltas).toBe('Your best channel is the newsletter.');
    expect(text).toMatch(/event: done\ndata: \{[^\n]*"status":"completed"/);
    expect(await messages(mine, conversationId)).toEqual([
      'user:Hi',
      'assistant:Hello from the CMO.',
      'user:Which channel works best?',
      'assistant:Your best channel is the newsletter.',
    ]);
  });

  it('without streaming, queues the command (202) as the agent routes do', async () => {
    standIn.queue({ text: 'Queued reply.' });
    const res = await send(mine, mine.siteId, conversationId, { message: 'Later is fine' });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ command_id: expect.any(String), conversation_id: conversationId, status: 'pending' });
    await runCommands();
    expect((await messages(mine, conversationId)).slice(-2)).toEqual(['user:Later is fine', 'assistant:Queued reply.']);
  });

  it("refuses another owner's site (403), another site's conversation (404), an API key (401) and a bad body (400), writing nothing", async () => {
    const before = await messages(mine, conversationId);
    const foreignSite = await send(other, mine.siteId, conversationId, { message: 'peek' });
    expect(foreignSite.status).toBe(403);
    expect(foreignSite.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    const foreignConversation = await send(other, other.siteId, conversationId, { message: 'peek' });
    expect(foreignConversation.status).toBe(404);
    expect(foreignConversation.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'Conversation not found' } });
    const withKey = await call(ownerMessage, {
      method: 'POST',
      path: `/api/sites/${mine.siteId}/conversations/${conversationId}/messages`,
      params: { site_id: mine.siteId, conversation_id: conversationId },
      headers: presenters.bearer(mine.key),
      body: { message: 'key' },
    });
    expect(withKey.status).toBe(401);
    for (const body of [{}, { message: '' }, { message: 'x', site_id: mine.siteId }]) {
      const bad = await send(mine, mine.siteId, conversationId, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_REQUEST');
    }
    await runCommands();
    expect(await messages(mine, conversationId)).toEqual(before);
  });
});

describe('POST /api/sites/{site_id}/conversations', () => {
  const start = (t: Tenant, siteId: string, body: unknown, headers: Record<string, string> = {}) =>
    call(startConversation, {
      method: 'POST',
      path: `/api/sites/${siteId}/conversations`,
      params: { site_id: siteId },
      headers: { ...t.user.auth, ...headers },
      body,
    });

  it("starts a conversation with the agent chosen, streams its reply and records both turns; the command shows in the site's commands", async () => {
    standIn.queue({ text: 'Hello, I am your sales agent.' });
    const req = new Request(`http://localhost:3000/api/sites/${mine.siteId}/conversations`, {
      method: 'POST',
      headers: { ...mine.user.auth, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ agent: 'sales', message: 'Who are you?' }),
    });
    const res = await startConversation(req, { params: Promise.resolve({ site_id: mine.siteId }) });
    expect(res.status).toBe(200);
    const text = await res.text();
    const accepted = JSON.parse(/^event: accepted\ndata: (.*)$/m.exec(text)![1]);
    expect([...text.matchAll(/^event: delta\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]).text).join('')).toBe('Hello, I am your sales agent.');
    expect(await messages(mine, accepted.conversation_id)).toEqual(['user:Who are you?', 'assistant:Hello, I am your sales agent.']);
    const { items } = await listCommands(mine.siteId, { limit: 50, offset: 0 });
    expect(items.find((c) => c.command_id === accepted.command_id)).toMatchObject({
      agent: 'sales',
      status: 'completed',
      conversation_id: accepted.conversation_id,
    });
  });

  it('without streaming, queues the command (202) in a new conversation', async () => {
    standIn.queue({ text: 'Grow with us.' });
    const res = await start(mine, mine.siteId, { agent: 'copywriter', message: 'A tagline, please' });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ command_id: expect.any(String), conversation_id: expect.any(String), status: 'pending' });
    await runCommands();
    expect(await messages(mine, res.body.data.conversation_id)).toEqual(['user:A tagline, please', 'assistant:Grow with us.']);
  });

  it("refuses another owner's site (403), an API key (401), an unknown agent and a bad body (400)", async () => {
    expect((await start(other, mine.siteId, { agent: 'sales', message: 'peek' })).status).toBe(403);
    const withKey = await call(startConversation, {
      method: 'POST',
      path: `/api/sites/${mine.siteId}/conversations`,
      params: { site_id: mine.siteId },
      headers: presenters.bearer(mine.key),
      body: { agent: 'sales', message: 'key' },
    });
    expect(withKey.status).toBe(401);
    for (const body of [
      { message: 'x' },
      { agent: 'nobody', message: 'x' },
      { agent: 'cmo', message: '' },
      { agent: 'cmo', message: 'x', site_id: mine.siteId },
    ]) {
      const bad = await start(mine, mine.siteId, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_REQUEST');
    }
  });
});
