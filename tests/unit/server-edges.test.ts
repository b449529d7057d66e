import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAfterAnswer, refuseMalformed, routeTable } from '@/lib/http/server-edges.mjs';
import { rawHttp } from '@/tests/helpers/raw-http';

/**
 * The server entry's own answers (lib/http/server-edges.mjs) over a real socket, as server.mjs
 * wires them: malformed requests first, then /api paths and methods no route has, against the
 * generated route table. What passes reaches the stand-in handler ("routed"), as it would reach
 * the fast path or Next. tests/e2e/fast-path.test.ts asks the built app the same on both paths.
 */
const table = routeTable(JSON.parse(readFileSync('lib/http/route-table.json', 'utf8')));
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (refuseMalformed(req, res) || table.refuseUnrouted(req, res)) return;
    res.end(`routed ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const raw = (bytes: string, count = 1) => rawHttp(port, bytes, count);
const request = async (method: string, target: string, headers = '') => (await raw(`${method} ${target} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`))[0];
const envelope = (body: string) => JSON.parse(body) as { success: boolean; error: { code: string; message: string; request_id: string } };

describe('the server entry at its edges', () => {
  it('a request target that is not a path: 400, for any method', async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const answer = await request(method, '*');
      expect(answer.status, method).toBe(400);
      expect(answer.body).toMatch(/must be a path/);
    }
  });

  it('a method no route has: 405 with Allow, the error envelope under /api', async () => {
    const answer = await request('TRACE', '/api/health', 'X-Request-ID: edge-1\r\n');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT');
    expect(answer.headers['x-request-id']).toBe('edge-1');
    expect(envelope(answer.body)).toEqual({
      success: false,
      error: { code: 'METHOD_NOT_ALLOWED', message: 'TRACE is not a method of this server', request_id: 'edge-1' },
    });
    expect((await request('PROPFIND', '/console')).status).toBe(405);
  });

  it('a path that does not decode: 400 everywhere, text outside /api', async () => {
    const console = await request('GET', '/console/sites/%ff');
    expect(console.status).toBe(400);
    expect(console.headers['content-type']).toMatch(/^text\/plain/);
    expect(console.body).toMatch(/percent-encoding/);
    const api = await request('GET', '/api/sites/%E0%A4%A/keys');
    expect(api.status).toBe(400);
    expect(envelope(api.body).error.code).toBe('INVALID_REQUEST');
  });

  it('dot segments under /api: 400, plain or encoded', async () => {
    for (const target of ['/api/visitors/session/../end', '/api/visitors/./track', '/api/visitors/session/%2e%2E/end']) {
      const answer = await request('POST', target, 'Content-Length: 0\r\n');
      expect(answer.status, target).toBe(400);
      expect(envelope(answer.body).error.message).toMatch(/segments/);
    }
  });

  it('an /api path no route has: 404 NOT_FOUND, whatever the method or body', async () => {
    for (const [method, target] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
      ['POST', '/api/keys/extra/segments/here'],
    ]) {
      const answer = await request(method, target, 'Content-Length: 0\r\n');
      expect(answer.status, target).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(envelope(answer.body).error).toMatchObject({ code: 'NOT_FOUND', message: `No API route at ${target}` });
    }
    const multipart = await raw(
      'POST /api/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 42\r\n\r\n--b\r\nContent-Disposition: form-data\r\n\r\n--b--',
    );
    expect(multipart[0].status).toBe(404);
  });

  it("a method the route lacks: 405 with the route's Allow; HEAD goes with GET, OPTIONS with every route", async () => {
    const answer = await request('DELETE', '/api/visitors/track');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('OPTIONS, POST');
    expect(envelope(answer.body).error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not a method of /api/visitors/track' });
    expect((await request('HEAD', '/api/health')).status).toBe(200);
    expect((await request('OPTIONS', '/api/keys')).status).toBe(200);
    expect((await request('PUT', '/api/health')).headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('routes take their paths: parameters, the catch-all, a trailing slash (Next redirects it), query strings and other roots', async () => {
    for (const [method, target] of [
      ['GET', '/api/health?x=1'],
      ['GET', '/api/auth/session'],
      ['POST', '/api/auth/callback/credentials'],
      ['POST', '/api/visitors/track/'],
      ['GET', '/console/sites/anything'],
      ['GET', '/t.js'],
    ]) {
      const answer = await request(method, target, 'Content-Length: 0\r\n');
      expect(answer.body, `${method} ${target}`).toBe(`routed ${method} ${target}`);
    }
  });

  it('a refusal drops the body it did not read: the next request on the connection is answered', async () => {
    const chunked =
      'POST /api/nothing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' + '400\r\n' + 'x'.repeat(0x400) + '\r\n' + '0\r\n\r\n';
    const [refused, next] = await raw(chunked + 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 2);
    expect(refused.status).toBe(404);
    expect(next.body).toBe('routed GET /api/health');
  });
});

describe('a request handed on past the edges (to Next)', () => {
  /**
   * As Next reads a body: by iterating the request. A route that stops past its size cap ends the
   * iteration (which destroys the request) and answers 413 while the rest of the body arrives.
   */
  const CAP = 64 * 1024;
  let next: http.Server;
  let nextPort: number;
  beforeAll(async () => {
    next = http.createServer(async (req, res) => {
      drainAfterAnswer(req, res);
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).byteLength;
        if (size > CAP) break;
      }
      res.writeHead(size > CAP ? 413 : 200, { 'content-type': 'text/plain' }).end(`read ${size > CAP ? 'past the cap' : size}`);
    });
    await new Promise<void>((resolve) => next.listen(0, '127.0.0.1', resolve));
    nextPort = (next.address() as AddressInfo).port;
  });
  afterAll(async () => {
    next.closeAllConnections();
    await new Promise((resolve) => next.close(resolve));
  });

  it('after a 413 on a chunked body the connection answers the next request (no parse error, no reset)', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 24 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const answers = await rawHttp(
      nextPort,
      `POST /api/agents/tools/leads/create HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n` +
        'POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
      2,
    );
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [413, 'read past the cap'],
      [200, 'read 2'],
    ]);
  });
});
