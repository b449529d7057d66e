import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedPrepared, openDatabase } from '@/lib/db/client';
import { migrate, readMigrations } from '@/lib/db/migrate';
import { JOB_SCHEMA } from '@/lib/jobs/define';
import { testDir } from '@/tests/helpers/test-env';

/**
 * The worker that holds the embedded database leaves a fresh data directory's migrations to a
 * short-lived run of itself (`--prepare-database`), so its own WebAssembly memory never holds
 * what they grew. That run must leave a database the long-lived process only reopens.
 */
describe.skipIf(process.env.TEST_DB !== 'pglite')('preparing the embedded database apart', () => {
  const dataDir = testDir('sgp-prepare-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('migrates a fresh data directory and installs the job queue, in a process that then exits', async () => {
    const pglite = path.join(dataDir, 'pglite');
    expect(await embeddedPrepared(pglite)).toBe(false);

    const { DATABASE_URL: _postgres, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts', '--prepare-database'], {
      env: { ...env, DATA_DIR: dataDir },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(await embeddedPrepared(pglite)).toBe(true);

    const db = await openDatabase({ kind: 'pglite', dataDir: pglite });
    try {
      const tracked = await db.sql.query<{ version: string }>('select version from schema_migrations order by version');
      expect(tracked.map((r) => r.version)).toEqual((await readMigrations()).map((m) => m.version));
      const [queueSchema] = await db.sql.query<{ n: number }>('select count(*)::int as n from information_schema.tables where table_schema = $1', [
        JOB_SCHEMA,
      ]);
      expect(queueSchema.n).toBeGreaterThan(0);
      // What the long-lived worker does next: reopen, and find nothing to apply.
      expect(await db.session((s) => migrate(s))).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
