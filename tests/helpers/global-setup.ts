import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { migrate } from '@/lib/db/migrate';

/**
 * Creating a PGlite database costs seconds; loading a dump costs a fraction of that. The
 * migrated template is built once per run and every test file loads its own copy. The test
 * processes' data directories (tests/helpers/test-env.ts) are made in the run's directory,
 * removed with it at the end.
 */
export default async function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sgp-template-'));
  const file = path.join(dir, 'template.tar');
  const pg = await PGlite.create('memory://', { extensions: { pg_trgm } });
  await migrate({ exec: async (s) => void (await pg.exec(s)), query: async (s, p) => (await pg.query(s, p)).rows as never[] });
  const dump = await pg.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  process.env.PGLITE_TEMPLATE = file;
  process.env.TEST_DATA_ROOT = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
