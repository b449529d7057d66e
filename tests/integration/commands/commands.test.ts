import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getCommand } from '@/app/sites/[site_id]/commands/[command_id]/route';
import { GET as listCommands, POST as createCommand } from '@/app/sites/[site_id]/commands/route';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { runCommands, useCommandRuns } from '@/tests/helpers/commands';
import { call, createKey, createSite, createTenant, createUser, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';

// Commands run through the engine dispatcher and the worker, when a test says so.
useCommandRuns();

// Commands are carried out by the CMO agent: its model is a local stand-in.
useModelForFile();
let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
const tenants = () => ({ mine, other });
const path = (siteId: string) => `/sites/${siteId}/commands`;
const post = (headers: Record<string, string>, siteId: string, body: unknown) =>
  call(createCommand, { method: 'POST', path: path(siteId), params: { site_id: siteId }, headers, body });

describe('POST /sites/{site_id}/commands', () => {
  authMatrix({ tenants, present: presenters.xApiKey, write: true, send: (h, s) => post(h, s, { task: 'audit', description: 'd' }) });

  it('creates a command answered `processing`; it is pending until the CMO agent runs it', async () => {
    const res = await post(presenters.xApiKey(mine.key), mine.siteId, {
      task: 'Audit landing page',
      description: 'SEO pass',
      parameters: { url: 'https://example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { command_id: expect.any(String), status: 'processing', created_at: expect.any(String) } });
    const detail = await call(getCommand, {
      path: `${path(mine.siteId)}/${res.body.data.command_id}`,
      params: { site_id: mine.siteId, command_id: res.body.data.command_id },
      headers: presenters.xApiKey(mine.readKey),
    });
    expect(detail.body.data).toMatchObject({
      command_id: res.body.data.command_id,
      site_id: mine.siteId,
      task: 'Audit landing page',
      description: 'SEO pass',
      parameters: { url: 'https://example.com' },
      agent: 'cmo',
      status: 'pending',
      reply: null,
      tool_calls: [],
      usage: null,
      error: null,
    });
  });

  it.each([
    [{}],
    [{ task: '' }],
    [{ task: 'x', parameters: [] }],
    [{ task: 'x', priority: 1 }],
    [{ task: 'x', parameters: { big: 'x'.repeat(70_000) } }],
  ])('refuses %j with 400', async (body) => {
    const res = await post(presenters.xApiKey(mine.key), mine.siteId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /sites/{site_id}/commands', () => {
  authMatrix({
    tenants,
    present: presenters.xApiKey,
    write: false,
    send: (h, s) => call(listCommands, { path: path(s), params: { site_id: s }, headers: h }),
  });

  it('pages newest first with total/limit/offset/has_more, filters by status, and sees only its site', async () => {
    const user = await createUser();
    const siteId = await createSite(user);
    const key = presenters.xApiKey((await createKey(user, siteId)).apiKey);
    for (let i = 0; i < 5; i++) await post(key, siteId, { task: `task ${i}` });
    const page = await call(listCommands, { path: path(siteId), params: { site_id: siteId }, headers: key, query: { limit: 2, offset: 1 } });
    expect(page.status).toBe(200);
    expect(page.body.data.map((c: { task: string }) => c.task)).toEqual(['task 3', 'task 2']);
    expect(page.body.meta).toEqual({ total: 5, limit: 2, offset: 1, has_more: true });
    const done = await call(listCommands, { path: path(siteId), params: { site_id: siteId }, headers: key, query: { status: 'completed' } });
    expect(done.body.meta.total).toBe(0);
    const queued = await call(listCommands, { path: path(siteId), params: { site_id: siteId }, headers: key, query: { status: 'processing' } });
    expect(queued.body.meta.total).toBe(5);
    await runCommands();
    const finished = await call(listCommands, { path: path(siteId), params: { site_id: siteId }, headers: key, query: { status: 'completed' } });
    expect(finished.body.meta.total).toBeGreaterThanOrEqual(5);
    expect(finished.body.data.filter((c: { site_id: string }) => c.site_id !== siteId)).toEqual([]);
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { status: 'weird' }]) {
      const bad = await call(listCommands, { path: path(siteId), params: { site_id: siteId }, headers: key, query });
      expect(bad.status).toBe(400);
    }
  });
});

describe('GET /sites/{site_id}/commands/{command_id}', () => {
  const get = (headers: Record<string, string>, siteId: string, commandId: string) =>
    call(getCommand, { path: `${path(siteId)}/${commandId}`, params: { site_id: siteId, command_id: commandId }, headers });

  it("answers 404 for unknown ids and for another site's command", async () => {
    const theirs = await post(presenters.xApiKey(other.key), other.siteId, { task: 'secret' });
    const unknown = await get(presenters.xApiKey(mine.key), mine.siteId, '6f1c7a43-0b7e-4d38-9d1e-2a0b1b1f9e11');
    const foreign = await get(presenters.xApiKey(mine.key), mine.siteId, theirs.body.data.command_id);
    for (const res of [unknown, foreign]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    expect((await get(presenters.xApiKey(mine.key), mine.siteId, 'nope')).status).toBe(400);
  });
});
