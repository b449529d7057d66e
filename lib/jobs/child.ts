import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config, workersBesideWeb } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { useEmbeddedHost, writableDataDir, embeddedDataDir } from '@/lib/db/client';
import { onEnqueued } from './queue';

/**
 * The web process's side of background work: it runs none itself. Unless WORKERS=off, it starts
 * the worker (`scripts/worker.ts`) as its own process and keeps it running (restarted after a
 * crash); with the embedded database that process also holds PGlite and serves it on a Unix
 * socket, which the web process then uses like any Postgres — so PGlite's work (requests' and
 * jobs' alike) never runs on the thread that answers HTTP. One command, one data directory.
 *
 * With WORKERS=off nothing is started (serverless: `npm run worker` runs elsewhere, on Postgres).
 */
const child = processState<{ started?: Promise<void> }>('jobs.workerChild', () => ({}));

/** Unix socket paths are short (about 100 bytes): a long DATA_DIR gets its socket under the temp dir. */
export function socketDirFor(dataDir: string): string {
  const inData = path.join(dataDir, 'run');
  if (inData.length <= 90) return inData;
  return path.join(os.tmpdir(), `sgp-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
}

/** The bundle `npm run build` writes (scripts/build-worker.mjs), else the sources through tsx. */
function workerCommand(): string[] {
  const bundle = path.join(/*turbopackIgnore: true*/ process.cwd(), '.next', 'worker.cjs');
  if (existsSync(bundle)) return [bundle];
  return ['--import', 'tsx', path.join(/*turbopackIgnore: true*/ process.cwd(), 'scripts', 'worker.ts')];
}

function spawnWorker(args: string[]): ChildProcess {
  return spawn(process.execPath, [...workerCommand(), ...args], {
    cwd: process.cwd(),
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Resolves when the worker said it is ready; rejects with how it ended when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { ready?: boolean }) => {
      if (!m?.ready) return;
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      reject(new Error(`the worker process exited before it was ready (${signal ?? `code ${code}`}); its log above says why`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export function startWorkerBesideWeb(): Promise<void> {
  child.started ??= (async () => {
    const c = config();
    const embedded = !c.DATABASE_URL;
    if (!workersBesideWeb(c)) {
      if (embedded)
        log.warn(
          'WORKERS=off with the embedded database: no background work runs (workflow runs, webhook deliveries…); use Postgres to run `npm run worker` apart',
        );
      return;
    }
    if (embedded) writableDataDir(embeddedDataDir());
    const socketDir = embedded ? socketDirFor(path.resolve(/*turbopackIgnore: true*/ c.DATA_DIR)) : undefined;
    const args = socketDir ? ['--serve-database', socketDir] : [];
    let child = spawnWorker(args);
    let stopping = false;
    const forward = onEnqueued((queue) => {
      if (child.connected) child.send({ wake: queue }, () => undefined);
    });
    const supervise = (current: ChildProcess) =>
      current.once('exit', (code, signal) => {
        if (stopping) return;
        log.error('the worker process stopped; starting it again', { code, signal });
        setTimeout(() => {
          if (stopping) return;
          child = spawnWorker(args);
          supervise(child);
        }, 1000).unref();
      });
    const stop = () => {
      stopping = true;
      forward();
      if (child.exitCode === null) child.kill('SIGTERM');
    };
    process.once('exit', stop);
    await ready(child);
    supervise(child);
    if (socketDir) useEmbeddedHost(socketDir);
    log.info('worker process started', { pid: child.pid, embedded_database: embedded });
  })().catch((error) => {
    // A web process without its worker (and, embedded, without its database) serves nothing but
    // errors: it stops, so whatever supervises it sees the failure and the log says why.
    log.error('background work did not start; the server stops', errorFields(error));
    process.exit(1);
  });
  return child.started;
}
