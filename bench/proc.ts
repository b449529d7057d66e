import { readFileSync } from 'node:fs';

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
