import { afterAll, beforeAll } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { resetProviders } from '@/lib/core/providers';
import { stopSweeper } from '@/lib/robots/lifecycle';
import { useDatabase } from '@/lib/db/client';
import { flushKeyUsage } from '@/lib/keys/usage';
import { openTestDatabase } from './databases';
import { applyTestEnv } from './test-env';

applyTestEnv();
resetConfig();

let dispose: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase();
  dispose = opened.dispose;
  useDatabase(opened.database);
});

afterAll(async () => {
  await flushKeyUsage();
  // Built providers are dropped while the database is still open: robot browsers close, engines stop.
  stopSweeper();
  await resetProviders();
  await dispose?.();
});
