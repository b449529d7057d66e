import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeManifest } from '@/app/api/openapi.json/manifest';
import * as snippet from '@/app/t.js/route';
import { nodeDispatcher } from '@/lib/http/node-dispatch';
import { FAST_ROUTES } from '@/scripts/fast-path';
import { findRouteFiles, renderFastRoutes, withFastPath } from '@/scripts/route-files';

describe('the fast path route table', () => {
  it('is generated from the routes that declare `fastPath`, and current (`npm run routes`)', async () => {
    const files = await withFastPath(findRouteFiles());
    expect(readFileSync('scripts/fast-routes.ts', 'utf8')).toBe(renderFastRoutes(files));
    // Nothing else serves a route fast: the dispatcher's table is that list, each module once.
    const declared = files.filter((f) => f.fast);
    expect(FAST_ROUTES.map((r) => r.path).sort()).toEqual(declared.map((f) => f.urlPath).sort());
    expect(new Set(FAST_ROUTES.map((r) => r.module)).size).toBe(FAST_ROUTES.length);
    const table = JSON.parse(readFileSync('lib/http/route-table.json', 'utf8')) as { routes: { path: string; fast_path?: true }[] };
    expect(table.routes.filter((r) => r.fast_path).map((r) => r.path)).toEqual(declared.map((f) => f.urlPath));
  }, 60_000);

  it('serves each module at the path the route manifest gives it (t.js: its file)', () => {
    for (const { path, module } of FAST_ROUTES) {
      if (module === snippet) expect(path).toBe('/t.js');
      else expect(routeManifest.find((r) => r.module === module)?.path, path).toBe(path);
    }
  });
});

describe('nodeDispatcher', () => {
  // Stand-in route modules: what is checked here is which requests the dispatcher takes and what it hands them.
  const seen: { method: string; url: string; params: Record<string, string>; body: string }[] = [];
  const echo = async (req: Request, ctx: { params: Promise<Record<string, string>> }) => {
    seen.push({ method: req.method, url: req.url, params: await ctx.params, body: req.body ? await req.text() : '' });
    const headers = new Headers({ 'x-one': '1' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    return new Response('{"ok":true}', { status: 201, headers });
  };
  const dispatch = nodeDispatcher([
    { path: '/api/things', module: { POST: echo } },
    { path: '/api/things/{thing_id}/end', module: { POST: echo, GET: echo } },
    { path: '/api/broken', module: { GET: () => Promise.reject(new Error('boom')) } },
    // A dynamic path listed before a static one it also matches: the static one wins, as in Next's router.
    { path: '/api/runs/{name}', module: { POST: echo } },
    { path: '/api/runs/webhook', module: { POST: async () => new Response('{"static":true}', { status: 202 }) } },
    // Answers without reading the body, or after reading only its start (a size cap).
    { path: '/api/unread', module: { POST: () => new Response(null, { status: 401 }) } },
    {
      path: '/api/capped',
      module: {
        POST: async (req: Request) => {
          const reader = req.body!.getReader();
          await reader.read();
          await reader.cancel();
          return new Response(null, { status: 413 });
        },
      },
    },
  ]);
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!dispatch(req, res)) {
        res.statusCode = 299; // "handed on", as to Next
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a declared path and method with the handler’s response, headers and cookies intact', async () => {
    const res = await fetch(`${base}/api/things?x=1`, { method: 'POST', body: 'hello', headers: { host: 'app.example.com' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-one')).toBe('1');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: 'hello', params: {} });
    expect(new URL(seen.at(-1)!.url).pathname + new URL(seen.at(-1)!.url).search).toBe('/api/things?x=1');
  });

  it('decodes path params as Next does', async () => {
    const res = await fetch(`${base}/api/things/a%20b/end`, { method: 'GET' });
    expect(res.status).toBe(201);
    expect(seen.at(-1)!.params).toEqual({ thing_id: 'a b' });
  });

  it('prefers a static segment to a dynamic one, whatever the order of the table', async () => {
    const fixed = await fetch(`${base}/api/runs/webhook`, { method: 'POST', body: '{}' });
    expect(fixed.status).toBe(202);
    expect(await fixed.json()).toEqual({ static: true });
    const dynamic = await fetch(`${base}/api/runs/dailyStandUp`, { method: 'POST', body: '{}' });
    expect(dynamic.status).toBe(201);
    expect(seen.at(-1)!.params).toEqual({ name: 'dailyStandUp' });
  });

  it('hands on everything else: other paths, trailing slashes, undecodable segments, methods the module lacks, HEAD', async () => {
    for (const [method, path] of [
      ['POST', '/api/other'],
      ['POST', '/api/things/'],
      ['POST', '/api/things/x/end/more'],
      ['POST', '/api/things//end'],
      ['POST', '/api/things/%E0%A4%A/end'],
      ['PUT', '/api/things'],
      ['HEAD', '/api/things/x/end'],
    ]) {
      const res = await fetch(base + path, {
        method,
        ...(method === 'HEAD' ? {} : { body: method === 'POST' || method === 'PUT' ? 'x' : undefined }),
      });
      expect(res.status, `${method} ${path}`).toBe(299);
    }
  });

  it('keeps a connection usable after a route left the body unread or stopped reading it', async () => {
    const big = 'x'.repeat(2_000_000);
    for (const path of ['/api/unread', '/api/capped', '/api/unread']) {
      expect((await fetch(base + path, { method: 'POST', body: big })).status, path).toBe(path === '/api/capped' ? 413 : 401);
      // The next request on the same keep-alive connection, answered by the dispatcher and handed on alike.
      expect((await fetch(`${base}/api/things`, { method: 'POST', body: 'next' })).status).toBe(201);
      expect((await fetch(`${base}/api/other`, { method: 'POST', body: 'next' })).status).toBe(299);
    }
  });

  it('answers 500 without a body when a handler throws, as Next does', async () => {
    const res = await fetch(`${base}/api/broken`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('');
  });
});
