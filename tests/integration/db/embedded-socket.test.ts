import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, openDatabase, type Database } from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
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

  it("the holder's memory line names PGlite's WebAssembly memory beside the process's own figures", async () => {
    const fields = memoryFields(await database());
    expect(fields.wasm_mb).toBeGreaterThanOrEqual(16);
    expect(fields.external_mb).toBeGreaterThanOrEqual(fields.wasm_mb);
    expect(fields.rss_mb).toBeGreaterThan(fields.heap_used_mb);
    expect(memoryFields(client)).not.toHaveProperty('wasm_mb');
  });
});
