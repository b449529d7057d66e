import { afterAll, beforeAll, vi } from 'vitest';
import { resetConfig } from '@/lib/core/config';

/**
 * What the process writes to `streams` (stdout and stderr) during the tests of the calling scope, at
 * LOG_LEVEL `level`: the writes are kept in the returned array instead (from `beforeAll` on, after any
 * `beforeAll` registered before this call); after the tests the streams write again and LOG_LEVEL
 * is back to `silent`.
 */
export function captureLogLines(level: 'debug' | 'info', streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): string[] {
  const lines: string[] = [];
  beforeAll(() => {
    process.env.LOG_LEVEL = level;
    resetConfig();
    for (const stream of streams) {
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      });
    }
  });
  afterAll(() => {
    vi.restoreAllMocks();
    process.env.LOG_LEVEL = 'silent';
    resetConfig();
  });
  return lines;
}
