import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { database, openDatabase, type Database } from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
import { isDatabaseUnreachable } from '@/lib/db/errors';
import { maskError } from '@/lib/http/pipeline';
import { memoryFields } from '@/lib/worker/memory';

/**
 * The process that holds the embedded database serves it on a socket for the app's other
 * processes, for as long as the app runs: what it relays must not stay in its memory.
 */
const onPglite = process.env.TEST_DB !== 'postgres';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapUsed = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

describe.runIf(onPglite)('the embedded database over its socket', () => {
  let server: EmbeddedServer;
  let client: Database;
  let socketDir: string;

  beforeAll(async () => {
    socketDir = mkdtempSync(path.join(tmpdir(), 'sgp-socket-'));
    server = await (await database()).serve!(socketDir);
    client = await openDatabase({ kind: 'pglite-socket', socketDir, poolMax: 2 });
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('relays answers without keeping them: the holder does not grow with the rows it served', async () => {
    const page = `select g as id, repeat('x', 100) as payload from generate_series(1, 500) g`;
    const served = async (times: number) => {
      for (let i = 0; i < times; i++) expect(await client.sql.query(page)).toHaveLength(500);
    };
    await served(20);
    const before = heapUsed();
    // 150,000 rows (~16 MB on the wire).
    await served(300);
    expect(heapUsed() - before).toBeLessThan(8 * 2 ** 20);
  }, 120_000);

  it('announcements reach every listener: a connection over the socket and the holder, whoever committed them', async () => {
    const holder = await database();
    const heard = { socket: [] as string[], holder: [] as string[] };
    let arrived = () => {};
    const each = (into: string[]) => (payload: string) => {
      into.push(payload);
      arrived();
    };
    const listening = (db: Database, into: string[]) =>
      new Promise<void>((resolve) => db.listen!('socket_test', each(into), (up) => up && resolve()));
    await Promise.all([listening(client, heard.socket), listening(holder, heard.holder)]);
    const both = (payload: string) =>
      new Promise<void>((resolve) => {
        arrived = () => heard.socket.includes(payload) && heard.holder.includes(payload) && resolve();
        arrived();
      });
    // Committed by a statement over the socket, then by one of the holder itself.
    const viaSocket = both('from the socket');
    await client.sql.query("select pg_notify('socket_test', 'from the socket')");
    await viaSocket;
    const viaHolder = both('from the holder');
    await holder.sql.query("select pg_notify('socket_test', 'from the holder')");
    await viaHolder;
    // Only in a listener's hands: an answer to a statement carries no notification.
    expect(await client.sql.query("select 1 as one, pg_notify('socket_test', 'quiet')")).toEqual([{ one: 1, pg_notify: '' }]);
  });

  it("the holder's memory line names PGlite's WebAssembly memory beside the process's own figures", async () => {
    const fields = memoryFields(await database());
    expect(fields.wasm_mb).toBeGreaterThanOrEqual(16);
    expect(fields.external_mb).toBeGreaterThanOrEqual(fields.wasm_mb);
    expect(fields.rss_mb).toBeGreaterThan(fields.heap_used_mb);
    expect(memoryFields(client)).not.toHaveProperty('wasm_mb');
  });
});

/** What a route answers while its database cannot be reached: 503 SERVICE_UNAVAILABLE with Retry-After, not a 500. */
/** A query through `client` fails as the database being unreachable, which the API answers 503 with Retry-After. */
async function expectUnavailable(client: Database) {
  const error = await client.sql.query('select 1').then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(isDatabaseUnreachable(error), String(error)).toBe(true);
  const answer = maskError(error, 'req-1', { method: 'GET', route: '/api/health' });
  expect(answer).toBeInstanceOf(ApiError);
  expect(answer).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
}

describe('a database that cannot be reached is a 503, not a fault', () => {
  it.runIf(onPglite)("the embedded database's holder gone: the open connection drops, then its socket refuses", async () => {
    const socketDir = mkdtempSync(path.join(tmpdir(), 'sgp-socket-'));
    const server = await (await database()).serve!(socketDir);
    const client = await openDatabase({ kind: 'pglite-socket', socketDir, poolMax: 1 });
    try {
      expect(await client.sql.query('select 1 as one')).toEqual([{ one: 1 }]);
      await server.close();
      for (let attempt = 0; attempt < 2; attempt++) {
        await expectUnavailable(client);
      }
    } finally {
      await client.close().catch(() => undefined);
      rmSync(socketDir, { recursive: true, force: true });
    }
  });

  it('a Postgres server that refuses connections', async () => {
    const client = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none', poolMax: 1 });
    try {
      await expectUnavailable(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  });

  it('other errors stay faults', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' }))).toBe(false);
    expect(isDatabaseUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
