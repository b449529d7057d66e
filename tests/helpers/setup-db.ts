import { afterAll, beforeAll } from 'vitest';
import type {} from '@/lib/agents/dispatch';
import { resetConfig } from '@/lib/core/config';
import { overrideProviders, resetProviders } from '@/lib/core/providers';
import { useDatabase } from '@/lib/db/client';
import { closeQueueClient } from '@/lib/jobs/queue';
import { flushKeyUsage } from '@/lib/keys/usage';
import { openTestDatabase } from './databases';
import { applyTestEnv } from './test-env';

applyTestEnv();
resetConfig();
// Created agent commands stay pending: the suites that run them put the engine dispatcher back
// (tests/helpers/commands.ts useCommandRuns, the dispatch and workflow behaviour suites).
overrideProviders({ commandDispatcher: { dispatch: async () => undefined } });

let dispose: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const opened = await openTestDatabase();
  dispose = opened.dispose;
  // The job queue's client starts with the database (lib/jobs/queue.ts registers that when imported).
  await useDatabase(opened.database);
});

afterAll(async () => {
  await flushKeyUsage();
  // Built providers are dropped while the database is still open: robot browsers close, engines stop.
  await resetProviders();
  await closeQueueClient();
  await dispose?.();
});
