import type { TestProject } from 'vitest/node';
import { CHROMIUM, chromiumAvailable } from './browser';
import { ensureBuilt, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app under test listens, e.g. http://127.0.0.1:3600. Empty when the suite is skipped. */
    e2eBaseUrl: string;
  }
}

/**
 * Builds the app when needed and starts one server (as `npm start` does) for the whole e2e project.
 * Without Chromium the suite is skipped locally and fails under CI=true.
 */
export default async function setup(project: TestProject) {
  if (!chromiumAvailable()) {
    const message = `${CHROMIUM} not found: install it with \`apt-get install -y chromium\` (never a downloaded browser)`;
    if (process.env.CI === 'true') throw new Error(`[e2e] required under CI=true: ${message}`);
    console.warn(`[e2e] skipping the end-to-end suite: ${message}`);
    project.provide('e2eBaseUrl', '');
    return;
  }
  ensureBuilt();
  const server = await startServer(Number(process.env.E2E_PORT ?? 3600));
  project.provide('e2eBaseUrl', server.url);
  return () => server.stop();
}
