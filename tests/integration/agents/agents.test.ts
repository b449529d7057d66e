import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { GET as getConversation } from '@/app/api/agents/conversations/[conversation_id]/route';
import { GET as listConversations } from '@/app/api/agents/conversations/route';
import { POST as contentEditor } from '@/app/api/agents/copywriter/content-editor/route';
import { POST as customerSupportMessage } from '@/app/api/agents/customerSupport/message/route';
import { POST as emailReply } from '@/app/api/agents/email/reply/route';
import { POST as salesMessage } from '@/app/api/agents/sales/message/route';
import { POST as cancelCommand } from '@/app/sites/[site_id]/commands/[command_id]/cancel/route';
import { GET as getCommand } from '@/app/sites/[site_id]/commands/[command_id]/route';
import { POST as createCommand } from '@/app/sites/[site_id]/commands/route';
import { executeCommand } from '@/lib/agents/execute';
import { commandDeadline } from '@/lib/agents/jobs';
import { offeredTools } from '@/lib/agents/tools';
import { config } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { JOB_SCHEMA } from '@/lib/jobs/define';
import { listLeads } from '@/lib/leads/repo';
import { updateSettings } from '@/lib/settings/service';
import type { ToolContext } from '@/lib/tools/define-tool';
import { tools } from '@/lib/tools/registry';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { runCommands, useCommandRuns } from '@/tests/helpers/commands';
import { call, createKey, createTenant, type Tenant } from '@/tests/helpers/harness';
import { USAGE, startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';

// Commands run through the engine dispatcher and the worker, when a test says so.
useCommandRuns();

let mine: Tenant;
let other: Tenant;
let standIn: LlmStandIn;
let restore: () => void;
beforeAll(async () => {
  standIn = await startLlmStandIn();
  restore = useStandIn(standIn);
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
afterEach(() => standIn.reset());
afterAll(async () => {
  restore();
  await standIn.close();
});

const agentCall = (
  handler: Parameters<typeof call>[0],
  path: string,
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => call(handler, { method: 'POST', path, headers: { ...presenters.bearer(key), ...headers }, body });
const message = (key: string, body: Record<string, unknown>) => agentCall(cmoMessage, '/api/agents/cmo/message', key, body);
const detail = async (t: Tenant, commandId: string) =>
  (
    await call(getCommand, {
      path: `/sites/${t.siteId}/commands/${commandId}`,
      params: { site_id: t.siteId, command_id: commandId },
      headers: presenters.xApiKey(t.key),
    })
  ).body.data;
const leadsOf = async (siteId: string) =>
  (await listLeads(siteId, { limit: 50, offset: 0, sort_by: 'created_at', sort_order: 'desc' } as never)).items;
/** Queues the model's answer, sends the agent request (202) and runs it; returns the answer and the prompt the model was given. */
async function runAgent(handler: Parameters<typeof call>[0], path: string, answer: string, body: Record<string, unknown>) {
  standIn.queue({ text: answer });
  const res = await agentCall(handler, path, mine.key, { site_id: mine.siteId, ...body });
  expect(res.status).toBe(202);
  await runCommands();
  return { res, user: textOf(standIn.requests[0].messages.at(-1)) };
}
const conversationOf = (conversationId: string) =>
  call(getConversation, {
    path: 'x',
    params: { conversation_id: conversationId },
    query: { site_id: mine.siteId },
    headers: presenters.bearer(mine.key),
  });
const systemOf = (i: number) => textOf(standIn.requests[i].messages.find((m) => m.role === 'system'));

describe('agent messages', () => {
  it('answers 202 with the pending command at once, then records reply, usage and both messages', async () => {
    standIn.queue({ text: 'Focus on SEO this quarter.' });
    const res = await message(mine.key, { site_id: mine.siteId, message: 'What should we focus on?' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, data: { command_id: expect.any(String), conversation_id: expect.any(String), status: 'pending' } });
    expect(standIn.requests).toHaveLength(0);
    expect((await detail(mine, res.body.data.command_id)).status).toBe('pending');

    expect(await runCommands()).toBe(1);
    const command = await detail(mine, res.body.data.command_id);
    expect(command).toMatchObject({
      agent: 'cmo',
      conversation_id: res.body.data.conversation_id,
      status: 'completed',
      reply: 'Focus on SEO this quarter.',
      tool_calls: [],
      usage: { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens, total_tokens: USAGE.total_tokens },
      error: null,
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect(standIn.requests[0]).toMatchObject({ model: 'stand-in-model', stream: true, authorization: 'Bearer standin-key' });
    const conversation = await call(getConversation, {
      path: `/api/agents/conversations/${command.conversation_id}`,
      params: { conversation_id: command.conversation_id },
      query: { site_id: mine.siteId },
      headers: presenters.bearer(mine.readKey),
    });
    expect(conversation.body.data).toMatchObject({ agent: 'cmo', title: 'What should we focus on?' });
    expect(conversation.body.data.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'What should we focus on?', command_id: command.command_id, tool_calls: [] }),
      expect.objectContaining({ role: 'assistant', content: 'Focus on SEO this quarter.', command_id: command.command_id, tool_calls: [] }),
    ]);
  });

  it("builds the system prompt from the site's settings and the role", async () => {
    await updateSettings(mine.siteId, {
      about: 'We sell handmade oak furniture.',
      goals: { primary: 'double newsletter signups' },
      branding: { voice_and_tone: { communication_style: 'warm and plain', forbidden_words: ['cheap', 'synergy'] } },
    });
    await agentCall(salesMessage, '/api/agents/sales/message', mine.key, { site_id: mine.siteId, message: 'hello' });
    await runCommands();
    const system = systemOf(0);
    expect(system).toContain('sales representative');
    expect(system).toContain('We sell handmade oak furniture.');
    expect(system).toContain('double newsletter signups');
    expect(system).toContain('warm and plain');
    expect(system).toContain('Never use these words: cheap, synergy.');
  });

  it("a tool call creates a lead in the caller's site, and is recorded with its result", async () => {
    standIn.queue(
      { toolCalls: [{ name: 'createLead', arguments: { name: 'Ann Lee', email: 'Ann@Example.com' } }] },
      { text: 'Ann is in your leads.' },
    );
    const res = await message(mine.key, { site_id: mine.siteId, message: 'Add Ann Lee, ann@example.com' });
    await runCommands();
    const command = await detail(mine, res.body.data.command_id);
    expect(command.status).toBe('completed');
    expect(command.reply).toBe('Ann is in your leads.');
    const [lead] = (await leadsOf(mine.siteId)).filter((l) => l.email === 'ann@example.com');
    expect(lead).toMatchObject({ name: 'Ann Lee', site_id: mine.siteId });
    expect(command.tool_calls).toEqual([
      {
        name: 'createLead',
        arguments: { name: 'Ann Lee', email: 'Ann@Example.com' },
        result: { lead: expect.objectContaining({ id: lead.id }) },
        error: null,
      },
    ]);
    // The model is shown no site_id to choose, and reads the tool's result in its next step.
    const createLeadTool = standIn.requests[0].tools?.find((t) => t.function.name === 'createLead');
    expect(createLeadTool?.function.parameters.properties).not.toHaveProperty('site_id');
    expect(createLeadTool?.function.parameters.required).toEqual(['name', 'email']);
    const toolMessage = standIn.requests[1].messages.find((m) => m.role === 'tool');
    expect(textOf(toolMessage)).toContain(lead.id);
    const conversation = await conversationOf(command.conversation_id);
    expect(conversation.body.data.messages[1].tool_calls).toEqual(command.tool_calls);
  });

  it("a model writing another site's site_id still acts on the caller's site only", async () => {
    standIn.queue(
      { toolCalls: [{ name: 'createLead', arguments: { site_id: other.siteId, name: 'Mallory', email: 'mallory@example.com' } }] },
      { toolCalls: [{ name: 'getLeads', arguments: { site_id: other.siteId } }] },
      { text: 'done' },
    );
    const res = await message(mine.key, { site_id: mine.siteId, message: 'Put Mallory in the other site' });
    await runCommands();
    const command = await detail(mine, res.body.data.command_id);
    expect((await leadsOf(other.siteId)).map((l) => l.email)).not.toContain('mallory@example.com');
    expect((await leadsOf(mine.siteId)).map((l) => l.email)).toContain('mallory@example.com');
    expect(command.tool_calls[0].result.lead.site_id).toBe(mine.siteId);
    const listed = command.tool_calls[1].result.leads as { site_id: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((l) => l.site_id === mine.siteId)).toBe(true);
  });

  it('a failing tool call is recorded with its error and the model reads it', async () => {
    standIn.queue({ toolCalls: [{ name: 'createLead', arguments: { name: 'No Email' } }] }, { text: 'I need an email.' });
    const res = await message(mine.key, { site_id: mine.siteId, message: 'Add No Email' });
    await runCommands();
    const command = await detail(mine, res.body.data.command_id);
    expect(command.status).toBe('completed');
    expect(command.tool_calls).toEqual([
      { name: 'createLead', arguments: { name: 'No Email' }, result: null, error: { code: 'INVALID_REQUEST', message: expect.any(String) } },
    ]);
    expect(textOf(standIn.requests[1].messages.find((m) => m.role === 'tool'))).toContain('INVALID_REQUEST');
  });

  it('every agent route refuses a read-only key (403) and records nothing', async () => {
    const counts = async () => {
      const db = await getDb();
      const { rows } = (await db.execute(sql`
        select (select count(*) from commands where site_id = ${mine.siteId})::int as commands,
               (select count(*) from conversations where site_id = ${mine.siteId})::int as conversations,
               (select count(*) from conversation_messages where site_id = ${mine.siteId})::int as messages`)) as unknown as { rows: unknown[] };
      return rows[0];
    };
    const before = await counts();
    const routes: [Parameters<typeof call>[0], string, Record<string, unknown>][] = [
      [cmoMessage, '/api/agents/cmo/message', { message: 'hi' }],
      [salesMessage, '/api/agents/sales/message', { message: 'hi' }],
      [customerSupportMessage, '/api/agents/customerSupport/message', { message: 'hi' }],
      [emailReply, '/api/agents/email/reply', { from: 'a@example.com', text: 'hi' }],
      [contentEditor, '/api/agents/copywriter/content-editor', { content: 'Oak tables.', instruction: 'shorter' }],
    ];
    for (const [handler, path, body] of routes) {
      for (const headers of [{}, { accept: 'text/event-stream' }] as Record<string, string>[]) {
        const res = await agentCall(handler, path, mine.readKey, { site_id: mine.siteId, ...body }, headers);
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      }
    }
    expect(await counts()).toEqual(before);
    expect(standIn.requests).toHaveLength(0);
  });

  it('a principal without the write scope is offered the read tools only', () => {
    const offered = offeredTools({ principal: { scopes: ['read'] } } as unknown as ToolContext)
      .map((t) => t.name)
      .sort();
    // updateSiteSettings is a read tool whose `update` action needs the write scope itself.
    expect(offered).toEqual([
      'getFinderCategoryIds',
      'getLeadNotes',
      'getLeadProperties',
      'getLeadTimeline',
      'getLeads',
      'getRequirements',
      'getSegments',
      'getSequence',
      'getSequences',
      'updateSiteSettings',
    ]);
    expect(offered).toEqual(
      tools
        .filter((t) => t.scope === 'read')
        .map((t) => t.name)
        .sort(),
    );
  });

  it('a write key is offered every tool', async () => {
    await message(mine.key, { site_id: mine.siteId, message: 'hi' });
    await runCommands();
    expect(standIn.requests[0].tools?.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['createLead', 'updateLead', 'updateSiteSettings', 'getLeads']),
    );
  });

  it('a model error fails the command with a message', async () => {
    standIn.queue({ status: 500, message: 'model exploded' });
    const res = await message(mine.key, { site_id: mine.siteId, message: 'hi' });
    await runCommands();
    const command = await detail(mine, res.body.data.command_id);
    expect(command).toMatchObject({ status: 'failed', reply: null, error: { code: 'MODEL_ERROR', message: expect.stringContaining('500') } });
    expect(command.error.message).toContain('model exploded');
    const conversation = await conversationOf(command.conversation_id);
    expect(conversation.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user']);
  });

  it('a model that does not answer in time fails the command with TIMEOUT', async () => {
    restore();
    restore = useStandIn(standIn, { LLM_TIMEOUT_MS: '1000' });
    try {
      standIn.queue({ delayMs: 2_500, then: { text: 'too late' } });
      const res = await message(mine.key, { site_id: mine.siteId, message: 'hi' });
      const started = performance.now();
      await runCommands();
      expect(performance.now() - started).toBeLessThan(2_400);
      const command = await detail(mine, res.body.data.command_id);
      expect(command).toMatchObject({ status: 'failed', reply: null, error: { code: 'TIMEOUT', message: expect.stringContaining('1000 ms') } });
    } finally {
      restore();
      restore = useStandIn(standIn);
    }
  });

  it('stops after LLM_MAX_STEPS tool rounds and fails without a reply', async () => {
    restore();
    restore = useStandIn(standIn, { LLM_MAX_STEPS: '2' });
    try {
      standIn.script = () => ({ toolCalls: [{ name: 'getLeads', arguments: {} }] });
      const res = await message(mine.key, { site_id: mine.siteId, message: 'loop' });
      await runCommands();
      expect(standIn.requests).toHaveLength(2);
      const command = await detail(mine, res.body.data.command_id);
      expect(command).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR', message: expect.stringContaining('LLM_MAX_STEPS') } });
      expect(command.tool_calls).toHaveLength(2);
    } finally {
      restore();
      restore = useStandIn(standIn);
    }
  });

  it('the email agent drafts a reply from the inbound email and stores it on the conversation', async () => {
    const { res, user } = await runAgent(emailReply, '/api/agents/email/reply', 'Hi Bob, yes — we ship to Spain.', {
      from: 'bob@example.com',
      from_name: 'Bob',
      subject: 'Shipping',
      text: 'Do you ship to Spain?',
    });
    expect(user).toContain('From: Bob <bob@example.com>');
    expect(user).toContain('Subject: Shipping');
    expect(user).toContain('Do you ship to Spain?');
    expect(systemOf(0)).toContain('email assistant');
    const command = await detail(mine, res.body.data.command_id);
    expect(command).toMatchObject({ agent: 'email', task: 'email reply', status: 'completed', reply: 'Hi Bob, yes — we ship to Spain.' });
    const conversation = await conversationOf(command.conversation_id);
    expect(conversation.body.data.title).toBe('Email from bob@example.com: Shipping');
    expect(conversation.body.data.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hi Bob, yes — we ship to Spain.' });
  });

  it('the copywriter edits content with its style controls and is offered no tools', async () => {
    const { res, user } = await runAgent(contentEditor, '/api/agents/copywriter/content-editor', 'Oak tables, built to last.', {
      content: 'We make tables out of oak wood that last for a very long time.',
      instruction: 'Make it punchy',
      length: 'shorter',
      format: 'markdown',
    });
    expect(standIn.requests[0].tools).toBeUndefined();
    expect(user).toContain('Instruction: Make it punchy');
    expect(user).toContain('Format of the answer: markdown');
    expect(user).toContain('We make tables out of oak wood');
    expect(await detail(mine, res.body.data.command_id)).toMatchObject({
      agent: 'copywriter',
      status: 'completed',
      reply: 'Oak tables, built to last.',
    });
  });

  it.each([[{ message: 'x', extra: 1 }], [{ message: '' }], [{ message: 'x', conversation_id: 'nope' }], [{}]])(
    'refuses body %j with 400 and records nothing',
    async (body) => {
      const res = await message(mine.key, { site_id: mine.siteId, ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    },
  );

  it("refuses another site's lead or an unknown visitor with 404", async () => {
    const theirs = await agentCall(cmoMessage, '/api/agents/cmo/message', other.key, { site_id: other.siteId, message: 'x' });
    expect(theirs.status).toBe(202);
    const [foreignLead] = await Promise.all([
      (async () => {
        const { createLead } = await import('@/lib/leads/repo');
        return createLead(other.siteId, { name: 'Theirs', email: 'theirs@example.com', status: 'new' } as never);
      })(),
    ]);
    for (const body of [{ lead_id: foreignLead.id }, { visitor_id: '6f1c7a43-0b7e-4d38-9d1e-2a0b1b1f9e11' }]) {
      const res = await message(mine.key, { site_id: mine.siteId, message: 'x', ...body });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    await runCommands();
  });

  it("gives the agent the lead's details when lead_id is sent", async () => {
    const { createLead } = await import('@/lib/leads/repo');
    const lead = await createLead(mine.siteId, { name: 'Carla Ruiz', email: 'carla@example.com', status: 'new', company: 'Ruiz SL' } as never);
    await agentCall(salesMessage, '/api/agents/sales/message', mine.key, { site_id: mine.siteId, message: 'Follow up', lead_id: lead.id });
    await runCommands();
    expect(systemOf(0)).toContain('Carla Ruiz');
    expect(systemOf(0)).toContain('Ruiz SL');
  });
});

describe('streaming (Accept: text/event-stream)', () => {
  const parseEvents = (text: string) =>
    text
      .split('\n\n')
      .filter(Boolean)
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        return { event, data: data ? JSON.parse(data) : undefined };
      });

  it('streams the reply as it is written and records the same reply as polling shows', async () => {
    const reply = 'Here is a plan in several streamed pieces: research, write, publish.';
    standIn.queue({ text: reply });
    const req = new Request('http://localhost:3000/api/agents/cmo/message', {
      method: 'POST',
      headers: { ...presenters.bearer(mine.key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ site_id: mine.siteId, message: 'Plan please' }),
    });
    const res = await cmoMessage(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const events = parseEvents(await res.text());
    expect(events[0]).toEqual({
      event: 'accepted',
      data: { command_id: expect.any(String), conversation_id: expect.any(String), status: 'running' },
    });
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.text).join('')).toBe(reply);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toMatchObject({ status: 'completed', reply });
    const polled = await detail(mine, events[0].data.command_id);
    expect(polled.reply).toBe(reply);
    expect(polled).toEqual(done.data);
    // It ran in the request: nothing is left for the queue.
    expect(await runCommands()).toBe(0);
  });

  it('a client that goes away mid-stream does not stop the command: it completes and is recorded', async () => {
    standIn.queue({ delayMs: 300, then: { text: 'Finished without you.' } });
    const req = new Request('http://localhost:3000/api/agents/cmo/message', {
      method: 'POST',
      headers: { ...presenters.bearer(mine.key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ site_id: mine.siteId, message: 'Leaving early' }),
    });
    const res = await cmoMessage(req, { params: Promise.resolve({}) });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const commandId = JSON.parse(/^data: (.*)$/m.exec(first)![1]).command_id;
    await reader.cancel();
    let command = await detail(mine, commandId);
    for (let i = 0; i < 200 && command.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      command = await detail(mine, commandId);
    }
    expect(command).toMatchObject({ status: 'completed', reply: 'Finished without you.' });
  });

  it('a refused streaming request answers the JSON error envelope', async () => {
    const req = new Request('http://localhost:3000/api/agents/cmo/message', {
      method: 'POST',
      headers: { ...presenters.bearer(mine.key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ site_id: mine.siteId }),
    });
    const res = await cmoMessage(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('INVALID_REQUEST');
  });
});

describe('site commands run by the CMO agent', () => {
  it('POST /sites/{site_id}/commands answers processing, then the CMO completes it with task, description and parameters as its instruction', async () => {
    standIn.queue({ text: 'Audit done: 3 issues.' });
    const res = await call(createCommand, {
      method: 'POST',
      path: `/sites/${mine.siteId}/commands`,
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(mine.key),
      body: { task: 'Audit landing page', description: 'SEO pass', parameters: { url: 'https://example.com' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ command_id: expect.any(String), status: 'processing', created_at: expect.any(String) });
    expect((await detail(mine, res.body.data.command_id)).status).toBe('pending');
    await runCommands();
    expect(systemOf(0)).toContain('Chief Marketing Officer');
    const user = textOf(standIn.requests[0].messages.at(-1));
    expect(user).toContain('Task: Audit landing page');
    expect(user).toContain('Description: SEO pass');
    expect(user).toContain('https://example.com');
    expect(await detail(mine, res.body.data.command_id)).toMatchObject({ agent: 'cmo', status: 'completed', reply: 'Audit done: 3 issues.' });
  });

  it('executeCommand does not run a finished command again', async () => {
    const res = await message(mine.key, { site_id: mine.siteId, message: 'once' });
    expect(await executeCommand(mine.siteId, res.body.data.command_id)).toBe('completed');
    expect(await executeCommand(mine.siteId, res.body.data.command_id)).toBe('completed');
    expect(standIn.requests).toHaveLength(1);
    expect(await runCommands()).toBe(0);
  });

  it('a command that starts running queues its deadline job, which records it INTERRUPTED if it is still running then', async () => {
    const ran = await message(mine.key, { site_id: mine.siteId, message: 'on time' });
    expect(await runCommands()).toBe(1);
    const db = await getDb();
    const queued = (await db.execute(
      sql`select start_after from ${sql.raw(JOB_SCHEMA)}.job where name = ${commandDeadline.name} and data->>'commandId' = ${ran.body.data.command_id}`,
    )) as unknown as { rows: { start_after: string | Date }[] };
    expect(queued.rows).toHaveLength(1);
    // LLM_TIMEOUT_MS and a minute of grace after the start.
    expect(new Date(queued.rows[0].start_after).getTime() - Date.now()).toBeGreaterThan(config().LLM_TIMEOUT_MS);
    const ctx = { id: 'test', attempt: 0, retryLimit: 0, signal: new AbortController().signal };
    // A finished command is left as it is.
    await commandDeadline.run({ siteId: mine.siteId, commandId: ran.body.data.command_id }, ctx);
    expect((await detail(mine, ran.body.data.command_id)).status).toBe('completed');

    const res = await message(mine.key, { site_id: mine.siteId, message: 'crash' });
    await db.execute(sql`update commands set status = 'running', started_at = now() where id = ${res.body.data.command_id}`);
    const asked = standIn.requests.length;
    await commandDeadline.run({ siteId: mine.siteId, commandId: res.body.data.command_id }, ctx);
    expect(await detail(mine, res.body.data.command_id)).toMatchObject({
      status: 'failed',
      error: { code: 'INTERRUPTED', message: expect.stringContaining('interrupted') },
    });
    expect(standIn.requests).toHaveLength(asked);
  });

  it('a command whose key was revoked before it ran fails without calling the model', async () => {
    const key = await createKey(mine.user, mine.siteId, ['read', 'write']);
    const res = await message(key.apiKey, { site_id: mine.siteId, message: 'after revocation' });
    const db = await getDb();
    await db.execute(sql`update api_keys set revoked_at = now() where id = ${key.id}`);
    await runCommands();
    expect(await detail(mine, res.body.data.command_id)).toMatchObject({
      status: 'failed',
      error: { code: 'UNAUTHORIZED', message: expect.stringContaining('revoked') },
    });
    expect(standIn.requests).toHaveLength(0);
  });

  it('a command running elsewhere is left alone', async () => {
    const res = await message(mine.key, { site_id: mine.siteId, message: 'busy elsewhere' });
    const db = await getDb();
    await db.execute(sql`update commands set status = 'running', started_at = now() where id = ${res.body.data.command_id}`);
    expect(await executeCommand(mine.siteId, res.body.data.command_id)).toBe('running');
    expect(standIn.requests).toHaveLength(0);
    await db.execute(sql`update commands set status = 'cancelled' where id = ${res.body.data.command_id}`);
  });
});

describe('POST /sites/{site_id}/commands/{command_id}/cancel', () => {
  const cancel = (headers: Record<string, string>, t: Tenant, commandId: string) =>
    call(cancelCommand, {
      method: 'POST',
      path: `/sites/${t.siteId}/commands/${commandId}/cancel`,
      params: { site_id: t.siteId, command_id: commandId },
      headers,
    });
  let target: string;
  beforeAll(async () => {
    target = (await message(mine.key, { site_id: mine.siteId, message: 'to cancel' })).body.data.command_id;
  });
  authMatrix({
    tenants: () => ({ mine, other }),
    present: presenters.xApiKey,
    write: true,
    send: (h, siteId) => call(cancelCommand, { method: 'POST', path: 'x', params: { site_id: siteId, command_id: target }, headers: h }),
  });

  it('a running command that is cancelled stops as its cancellation commits and records no reply', async () => {
    standIn.queue({ delayMs: 8_000, then: { text: 'too late' } });
    const res = await message(mine.key, { site_id: mine.siteId, message: 'long job' });
    const commandId = res.body.data.command_id;
    const started = performance.now();
    const running = executeCommand(mine.siteId, commandId);
    while ((await detail(mine, commandId)).status !== 'running') await new Promise((r) => setTimeout(r, 10));
    expect((await cancel(presenters.xApiKey(mine.key), mine, commandId)).body.data.status).toBe('cancelled');
    expect(await running).toBe('cancelled');
    // Told by the cancellation itself: stopped long before the model would have answered.
    expect(performance.now() - started).toBeLessThan(5_000);
    const command = await detail(mine, commandId);
    expect(command).toMatchObject({ status: 'cancelled', reply: null });
    const conversation = await conversationOf(command.conversation_id);
    expect(conversation.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user']);
  });

  it("a cancelled pending command never runs; a finished one is left as it is; another site's is 404", async () => {
    const res = await message(mine.key, { site_id: mine.siteId, message: 'never mind' });
    const cancelled = await cancel(presenters.xApiKey(mine.key), mine, res.body.data.command_id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', finished_at: expect.any(String) });
    await runCommands();
    expect(standIn.requests.some((r) => r.messages.some((m) => textOf(m) === 'never mind'))).toBe(false);
    const done = await message(mine.key, { site_id: mine.siteId, message: 'finish me' });
    await runCommands();
    expect((await cancel(presenters.xApiKey(mine.key), mine, done.body.data.command_id)).body.data.status).toBe('completed');
    const theirs = await message(other.key, { site_id: other.siteId, message: 'theirs' });
    expect((await cancel(presenters.xApiKey(mine.key), mine, theirs.body.data.command_id)).status).toBe(404);
    await runCommands();
  });
});

describe('without a configured model', () => {
  const routes = [
    ['cmo', () => message(mine.key, { site_id: mine.siteId, message: 'x' })],
    ['sales', () => agentCall(salesMessage, '/api/agents/sales/message', mine.key, { site_id: mine.siteId, message: 'x' })],
    [
      'customerSupport',
      () => agentCall(customerSupportMessage, '/api/agents/customerSupport/message', mine.key, { site_id: mine.siteId, message: 'x' }),
    ],
    ['email', () => agentCall(emailReply, '/api/agents/email/reply', mine.key, { site_id: mine.siteId, from: 'a@example.com', text: 'x' })],
    [
      'copywriter',
      () => agentCall(contentEditor, '/api/agents/copywriter/content-editor', mine.key, { site_id: mine.siteId, content: 'x', instruction: 'y' }),
    ],
    [
      'stream',
      () => agentCall(cmoMessage, '/api/agents/cmo/message', mine.key, { site_id: mine.siteId, message: 'x' }, { accept: 'text/event-stream' }),
    ],
    [
      'site command',
      () =>
        call(createCommand, {
          method: 'POST',
          path: `/sites/${mine.siteId}/commands`,
          params: { site_id: mine.siteId },
          headers: presenters.xApiKey(mine.key),
          body: { task: 'x' },
        }),
    ],
  ] as const;

  it.each(routes)('%s answers 503 MODEL_NOT_CONFIGURED naming the variables and records nothing', async (_name, send) => {
    restore();
    try {
      const before = await call(listConversations, { path: 'x', query: { site_id: mine.siteId }, headers: presenters.bearer(mine.key) });
      const res = await send();
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'MODEL_NOT_CONFIGURED', message: expect.stringContaining('LLM_BASE_URL'), request_id: expect.any(String) },
      });
      expect(res.body.error.message).toContain('LLM_MODEL');
      const after = await call(listConversations, { path: 'x', query: { site_id: mine.siteId }, headers: presenters.bearer(mine.key) });
      expect(after.body.meta.total).toBe(before.body.meta.total);
      expect(await runCommands()).toBe(0);
    } finally {
      restore = useStandIn(standIn);
    }
  });
});
