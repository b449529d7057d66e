import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOptions } from '../../bench/start-options';

/**
 * The app as a user meets it: `next build` (when the sources changed since the last build)
 * and `npm start`'s server entry (`node <its options> server.mjs`) on a fresh DATA_DIR with the embedded
 * database. One server serves the whole e2e project; its global setup starts it and hands the
 * URL to every test file. Files that need other settings start their own.
 */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ARTIFACTS = path.join(ROOT, 'test-results', 'e2e');
const NEXT_BIN = path.join(ROOT, 'node_modules', '.bin', 'next');
const SERVER_ENTRY = path.join(ROOT, 'server.mjs');
const SOURCES = [
  'app',
  'components',
  'lib',
  'scripts/worker.ts',
  'scripts/fast-path.ts',
  'scripts/build-worker.mjs',
  'proxy.ts',
  'next.config.ts',
  'package.json',
  'tsconfig.json',
  'supabase',
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** True when there is no production build or a source file is newer than it. */
export function needsBuild(): boolean {
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  if (!existsSync(buildId) || !['worker.cjs', 'fast-path.cjs'].every((b) => existsSync(path.join(ROOT, '.next', b)))) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

export function ensureBuilt(): void {
  if (!needsBuild()) return;
  console.log('[e2e] building the app (next build and the worker and fast-path bundles)…');
  const result = spawnSync(NEXT_BIN, ['build'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  const worker = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-worker.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (worker.status !== 0) throw new Error(`the worker and fast-path bundles failed (exit ${worker.status})`);
}

export interface RunningServer {
  url: string;
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the app as `npm start` does on `port` with a fresh DATA_DIR; resolves once /api/health
 * answers. Its output goes to test-results/e2e/<logName>.log.
 */
export async function startServer(port: number, env: Record<string, string> = {}, logName = 'server'): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-e2e-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = `test-results/e2e/${logName}.log`;
  const log = createWriteStream(path.join(ROOT, logFile));
  // The e2e app runs on its own embedded database, whatever the test run points elsewhere (unless `env` says).
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const childEnv: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  };
  const child = spawn(process.execPath, [...startOptions(ROOT), SERVER_ENTRY, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await terminate(child);
    // Output can still be on its way after the exit: the log stops listening before it ends.
    child.stdout!.unpipe(log);
    child.stderr!.unpipe(log);
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(url, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir, pid: child.pid!, stop };
}

async function waitUntilHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  // The first start creates the embedded database and migrates it, which takes minutes on a busy
  // machine; a server that fails exits (and is reported at once), the cap only catches a hang.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on ${url} within 5 minutes; see ${logFile}`);
}

/** SIGTERM to the server's process group, SIGKILL if it is still there after 5 s. */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
