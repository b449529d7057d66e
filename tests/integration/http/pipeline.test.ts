import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GET as health } from '@/app/api/health/route';
import { POST as createCommand } from '@/app/sites/[site_id]/commands/route';
import { resetConfig } from '@/lib/core/config';
import { defineRoute } from '@/lib/http/define-route';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

let mine: Tenant;
beforeAll(async () => {
  mine = await createTenant();
});
afterEach(() => {
  process.env.LOG_LEVEL = 'silent';
  delete process.env.MAX_BODY_BYTES;
  resetConfig();
  vi.restoreAllMocks();
});

const commands = (init: { headers?: Record<string, string>; rawBody?: string }) =>
  call(createCommand, {
    method: 'POST',
    path: `/sites/${mine.siteId}/commands`,
    params: { site_id: mine.siteId },
    headers: { ...presenters.xApiKey(mine.key), ...init.headers },
    rawBody: init.rawBody,
  });

describe('request id', () => {
  it('is generated when absent and honoured when given', async () => {
    const generated = await call(health, { path: '/api/health' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await call(health, { path: '/api/health', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
  });

  it('is replaced when the given one is not a safe token, and appears in error bodies', async () => {
    const res = await call(createCommand, {
      method: 'POST',
      path: '/x',
      headers: { 'x-request-id': 'bad id <script>' },
      params: { site_id: mine.siteId },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.error.request_id).toBe(id);
  });
});

describe('malformed requests are 400/413, never 500', () => {
  it.each([
    ['malformed JSON', { 'content-type': 'application/json' }, '{"task": '],
    ['wrong content type', { 'content-type': 'text/plain' }, '{"task":"x"}'],
    ['form encoding', { 'content-type': 'application/x-www-form-urlencoded' }, 'task=x'],
    ['JSON that is not an object', { 'content-type': 'application/json' }, '[1,2]'],
    ['JSON null', { 'content-type': 'application/json' }, 'null'],
  ])('%s → 400 INVALID_REQUEST', async (_name, headers, rawBody) => {
    const res = await commands({ headers, rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  });

  it('an oversized body → 413 PAYLOAD_TOO_LARGE', async () => {
    process.env.MAX_BODY_BYTES = '2048';
    resetConfig();
    const res = await commands({ headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify({ task: 'x'.repeat(5000) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('unknown errors', () => {
  const boom = defineRoute({
    summary: 'test',
    tags: ['test'],
    auth: { kind: 'public' },
    response: z.object({}),
    handler: () => {
      throw new Error('connection to 10.0.0.5 failed for user admin');
    },
  });

  it('answer 500 SYSTEM_ERROR with a generic message; the error is logged with the request id, without its message', async () => {
    process.env.LOG_LEVEL = 'error';
    resetConfig();
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const res = await call(boom, { path: '/boom', headers: { 'x-request-id': 'req-500' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: { code: 'SYSTEM_ERROR', message: 'Internal server error', request_id: 'req-500' } });
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === 'req-500');
    // The class and where it was thrown, never the message: messages quote their input.
    expect(logged).toMatchObject({
      level: 'error',
      msg: 'unhandled error',
      route: '/boom',
      error: { name: 'Error' },
      stack: expect.arrayContaining([expect.stringMatching(/^at /)]),
    });
    expect(JSON.stringify(logged)).not.toContain('10.0.0.5');
  });

  /** A public test route whose response schema is `{ id: string }`, answering what `handler` returns. */
  const idRoute = (handler: () => { id: string }) =>
    defineRoute({ summary: 'test', tags: ['test'], auth: { kind: 'public' }, response: z.object({ id: z.string() }), handler });

  it('a handler returning data that breaks its response schema is a 500, not a leak', async () => {
    const leaky = idRoute(() => ({ id: 1 }) as unknown as { id: string });
    const res = await call(leaky, { path: '/leaky' });
    expect(res.status).toBe(500);
  });

  it('internal columns are dropped by the response schema', async () => {
    const route = idRoute(() => ({ id: 'a', key_hash: 'secret' }));
    const res = await call(route, { path: '/x' });
    expect(res.body).toEqual({ success: true, data: { id: 'a' } });
  });
});
