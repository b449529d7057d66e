import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/**
 * A real Postgres primary and a streaming read replica of it, made with the machine's Postgres
 * binaries (`apt-get install postgresql`; PG_BIN names another directory): `initdb` of a primary
 * with wal_level=replica in a temporary directory, `pg_basebackup -R` of it to a replica that
 * streams from it, both started with `pg_ctl -w` on free loopback ports (PG_REPLICA_TEST_PORT and up,
 * default 5450). Ready when a query answers on each; `replayed()` waits until the replica has
 * replayed everything committed on the primary so far, by comparing their WAL positions.
 * As root, the servers run as the `postgres` system user (Postgres refuses to run as root).
 */
export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Resolves once the replica replayed what the primary had written when it was called. */
  replayed(): Promise<void>;
  /** Stops applying the primary's changes on the replica (it keeps answering, from before the pause). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the replica's server (fast shutdown): connections to it are refused. */
  stopReplica(): Promise<void>;
  /** Stops both servers and removes their directory; never throws. */
  stop(): Promise<void>;
}

/** The directory of the newest installed Postgres whose binaries the pair needs, or undefined. */
export function postgresBinaries(): string | undefined {
  const executable = (dir: string) =>
    ['initdb', 'pg_ctl', 'pg_basebackup'].every((name) => {
      try {
        accessSync(path.join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (process.env.PG_BIN) return executable(process.env.PG_BIN) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find(executable);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  const first = Number(process.env.PG_REPLICA_TEST_PORT ?? 5450);
  for (let port = first; ports.length < count && port < first + 50; port++) if (await portFree(port)) ports.push(port);
  if (ports.length < count) throw new Error(`no ${count} free ports from ${first}`);
  return ports;
}

/** Who runs the servers: the `postgres` system user when this process is root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'))
    .find((f) => f[0] === 'postgres');
  if (!entry) throw new Error('running as root needs a `postgres` system user to run the test servers');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

export async function startReplicaPair(bin: string): Promise<ReplicaPair> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sgp-replica-'));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = await freePorts(2);

  const run = (name: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      execFile(
        path.join(bin, name),
        args,
        { cwd: dir, env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '', LC_ALL: 'C', TZ: 'UTC' }, ...(user ?? {}) },
        (error, stdout, stderr) => (error ? reject(new Error(`${name} failed: ${stderr || stdout || error.message}`)) : resolve()),
      );
    });
  const serverOptions = (port: number) =>
    [
      `-c port=${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c wal_level=replica',
      '-c max_wal_senders=4',
      '-c hot_standby=on',
      '-c fsync=off',
      '-c shared_buffers=16MB',
      '-c max_connections=40',
    ].join(' ');
  const start = (dataDir: string, port: number) =>
    run('pg_ctl', ['-D', dataDir, '-l', `${dataDir}.log`, '-w', '-t', '60', '-o', serverOptions(port), 'start']);
  const stopServer = (dataDir: string, mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function query<T>(url: string, text: string, values?: unknown[]): Promise<T[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }

  const stop = async () => {
    await stopServer(replicaDir, 'immediate').catch(() => undefined);
    await stopServer(primaryDir, 'immediate').catch(() => undefined);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Left in the temporary directory: nothing runs from it any more.
    }
  };

  try {
    await run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await start(primaryDir, primaryPort);
    // The default pg_hba.conf of a trust initdb lets 127.0.0.1 connect for replication.
    await run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await start(replicaDir, replicaPort);
    const [{ standby }] = await query<{ standby: boolean }>(urlOf(replicaPort), 'select pg_is_in_recovery() as standby');
    if (!standby) throw new Error('the replica is not in recovery');
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    primaryUrl: urlOf(primaryPort),
    replicaUrl: urlOf(replicaPort),
    async replayed() {
      const [{ lsn }] = await query<{ lsn: string }>(urlOf(primaryPort), 'select pg_current_wal_lsn()::text as lsn');
      const client = new Client({ connectionString: urlOf(replicaPort) });
      await client.connect();
      try {
        const deadline = Date.now() + 30_000;
        for (let pause = 1; ; pause = Math.min(pause * 2, 32)) {
          const { rows } = await client.query('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]);
          if (rows[0].done) return;
          if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${lsn} within 30 s`);
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      } finally {
        await client.end();
      }
    },
    pauseReplay: () => query(urlOf(replicaPort), 'select pg_wal_replay_pause()').then(() => undefined),
    resumeReplay: () => query(urlOf(replicaPort), 'select pg_wal_replay_resume()').then(() => undefined),
    stopReplica: () => stopServer(replicaDir, 'fast'),
    stop,
  };
}
