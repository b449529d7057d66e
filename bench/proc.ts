import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** µs in one clock tick of /proc/<pid>/stat (USER_HZ 100: 10 ms). */
export const TICK_US = 1e6 / 100;

/** utime + stime of a process, in clock ticks (undefined once it is gone). */
export function cpuTicks(pid: number): number | undefined {
  try {
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * The CPU of the Postgres backends connected to `database`, sampled with `client` while work runs:
 * pools open and close connections meanwhile, and a backend that exits takes its ticks with it,
 * so each backend counts from its first reading (or from 0, when it started after the first
 * sample) to its last. Call `sample()` every ~100 ms and once at the end; `ticks()` is the sum.
 */
export function backendCpu(client: Pick<pg.Client, 'query'>, database: string): { sample(): Promise<void>; ticks(): number } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let initial = true;
  return {
    async sample() {
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
        database,
      ]);
      for (const { pid } of rows) {
        const t = cpuTicks(pid);
        if (t === undefined) continue;
        if (!first.has(pid)) first.set(pid, initial ? t : 0);
        last.set(pid, t);
      }
      initial = false;
    },
    ticks: () => [...last].reduce((sum, [pid, t]) => sum + t - first.get(pid)!, 0),
  };
}
