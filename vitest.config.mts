import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SuiteSummaryReporter from './tests/helpers/suite-summary';

/**
 * The e2e project drives the built app in Chromium over HTTP (tests/e2e/server.ts).
 * Every integration suite runs against embedded PGlite, and again against Postgres when
 * TEST_DATABASE_URL is set (CI sets it; under CI=true it is required).
 */
const alias = { '@': path.dirname(fileURLToPath(import.meta.url)) };
const shared = {
  globalSetup: ['tests/helpers/global-setup.ts'],
  setupFiles: ['tests/helpers/setup-db.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
const postgres = process.env.TEST_DATABASE_URL;
if (process.env.CI === 'true' && !postgres) {
  throw new Error('CI=true requires TEST_DATABASE_URL: the Postgres suites are mandatory in CI');
}

export default defineConfig({
  resolve: { alias },
  test: {
    // After the usual output: which machine-dependent suites ran or were skipped, and how to enable them.
    reporters: ['default', new SuiteSummaryReporter()],
    projects: [
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: { ...shared, name: 'pglite', include: ['tests/integration/**/*.test.ts'], env: { TEST_DB: 'pglite' } },
      },
      {
        // The suites of the routes the server entry serves on its fast path, again through that
        // dispatcher over HTTP (TEST_HTTP_PATH=fast, tests/helpers/harness.ts); the hostile suites
        // walk only the fast routes here.
        resolve: { alias },
        test: {
          ...shared,
          name: 'fast-path',
          include: ['tests/integration/visitors/**/*.test.ts', 'tests/integration/cors/**/*.test.ts', 'tests/integration/hostile/**/*.test.ts'],
          env: { TEST_DB: 'pglite', TEST_HTTP_PATH: 'fast' },
        },
      },
      {
        // Headless Chromium against one production build and one `next start` for every e2e file
        // (tests/e2e/global-setup.ts). Required under CI=true.
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // The Temporal engine against a real dev server (tests/helpers/temporal-global-setup.ts):
        // skipped without the `temporal` CLI, required under CI=true.
        resolve: { alias },
        test: {
          ...shared,
          name: 'temporal',
          include: ['tests/temporal/**/*.test.ts'],
          globalSetup: [...shared.globalSetup, 'tests/helpers/temporal-global-setup.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(postgres
        ? [
            {
              resolve: { alias },
              test: { ...shared, name: 'postgres', include: ['tests/integration/**/*.test.ts'], env: { TEST_DB: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
