import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The e2e project runs the built app (`next start`) once for all its tests. It needs Chromium at
 * CHROMIUM_PATH (default /usr/bin/chromium, driven by playwright-core; never downloaded). Under
 * CI=true a missing Chromium fails the run; locally the suite is skipped with a message.
 * The app is built first when there is no build or a source file is newer than it.
 */
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3420);
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const SOURCES = ['app', 'lib', 'proxy.ts', 'next.config.ts', 'supabase/migrations', 'package.json'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

function buildIfStale(): void {
  const buildId = '.next/BUILD_ID';
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (built && Math.max(...SOURCES.map(newestMtime)) < built) return;
  const result = spawnSync(path.join('node_modules', '.bin', 'next'), ['build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
}

async function waitUp(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('next start did not answer /api/health');
}

export default async function setup() {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true') throw new Error(`CI=true requires Chromium at ${CHROMIUM} for the e2e suite (apt-get install -y chromium)`);
    process.env.E2E_SKIP = `Chromium not found at ${CHROMIUM}; e2e suite skipped (install it with apt-get install -y chromium, or set CHROMIUM_PATH)`;
    console.warn(process.env.E2E_SKIP);
    return;
  }
  buildIfStale();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-e2e-'));
  const base = `http://127.0.0.1:${APP_PORT}`;
  // The app runs on embedded PGlite in a fresh data directory, whatever the shell's DATABASE_URL.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const server = spawn(path.join('node_modules', '.bin', 'next'), ['start', '-p', String(APP_PORT), '-H', '127.0.0.1'], {
    env: {
      ...env,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUp(base, server);
  } catch (error) {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env.E2E_APP_URL = base;
  process.env.E2E_CHROMIUM = CHROMIUM;
  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
