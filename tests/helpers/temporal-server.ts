import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freeLoopbackPort } from './serve';

/**
 * A real Temporal dev server (the official `temporal` CLI, `server start-dev`) for the Temporal
 * suites: loopback only, a free port, its own SQLite file, the `site_id` Keyword search
 * attribute registered at launch. Never a fake.
 */
export interface TemporalTestServer {
  address: string;
  namespace: string;
}

const INSTALL_HINT = 'go install github.com/temporalio/cli/cmd/temporal@v1.5.1';

/** TEMPORAL_CLI, else `temporal` on PATH, else Go's install directory. */
export function findTemporalCli(): string | undefined {
  const candidates = [
    process.env.TEMPORAL_CLI,
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => dir && path.join(dir, 'temporal')),
    process.env.GOPATH && path.join(process.env.GOPATH, 'bin', 'temporal'),
    path.join(os.homedir(), 'go', 'bin', 'temporal'),
  ];
  return candidates.find((file): file is string => {
    if (!file) return false;
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function missingCliMessage(): string {
  return `no \`temporal\` CLI found (set TEMPORAL_CLI, or install it with \`${INSTALL_HINT}\`)`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server could not bind a port another process took first. */
class PortTakenError extends Error {}

/** Ready = the frontend answers and the namespace knows the `site_id` attribute. */
async function waitUntilReady(address: string, namespace: string, child: ChildProcess, logFile: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = readFileSync(logFile, 'utf8');
      const message = `temporal server exited with ${child.exitCode}:\n${log.slice(-2000)}`;
      throw /address already in use/.test(log) ? new PortTakenError(message) : new Error(message);
    }
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1000 });
      const attributes = await connection.operatorService.listSearchAttributes({ namespace });
      if (attributes.customAttributes?.site_id !== undefined) return;
      lastError = new Error('site_id search attribute not registered yet');
    } catch (error) {
      lastError = error;
    } finally {
      await connection?.close();
    }
    await sleep(200);
  }
  throw new Error(`temporal server not ready after ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * The CLI picks its HTTP API and metrics ports itself (a free port it then releases), so another
 * process on a busy machine can take one first; such a start is retried with fresh ports.
 */
const START_ATTEMPTS = 3;

/** Starts a dev server and resolves once it serves; `stop` ends it and removes its files. */
export async function startTemporalDevServer(cli: string): Promise<TemporalTestServer & { stop: () => Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(cli);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !(error instanceof PortTakenError)) throw error;
    }
  }
}

async function startOnce(cli: string): Promise<TemporalTestServer & { stop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sgp-temporal-'));
  const logFile = path.join(dir, 'server.log');
  const port = await freeLoopbackPort();
  const namespace = 'default';
  const address = `127.0.0.1:${port}`;
  const log = openSync(logFile, 'a');
  const child = spawn(
    cli,
    [
      'server',
      'start-dev',
      '--headless',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--search-attribute',
      'site_id=Keyword',
      '--db-filename',
      path.join(dir, 'temporal.db'),
      '--namespace',
      namespace,
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', log, log] },
  );
  closeSync(log);
  // A test process that dies without its teardown must not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(address, namespace, child, logFile, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, namespace, stop };
}
