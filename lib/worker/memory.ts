import { log } from '@/lib/core/log';
import type { Database } from '@/lib/db/client';

const mb = (bytes: number) => Math.round(bytes / 1048576);

/**
 * Where this process's memory is, in MB: resident (`rss_mb`), the V8 heap (`heap_used_mb` of
 * `heap_total_mb`), memory outside it that V8 knows of (`external_mb`, which holds the WebAssembly
 * memory, and `array_buffers_mb`) and, in the process that holds the embedded database, PGlite's
 * WebAssembly memory (`wasm_mb`: the most it has needed at once; it never shrinks).
 */
export function memoryFields(held?: Pick<Database, 'wasmMemoryBytes'>): Record<string, number> {
  const m = process.memoryUsage();
  const wasm = held?.wasmMemoryBytes?.();
  return {
    rss_mb: mb(m.rss),
    heap_used_mb: mb(m.heapUsed),
    heap_total_mb: mb(m.heapTotal),
    external_mb: mb(m.external),
    array_buffers_mb: mb(m.arrayBuffers),
    ...(wasm === undefined ? {} : { wasm_mb: mb(wasm) }),
  };
}

/**
 * `kill -USR2 <pid>` logs the process's memory (`memoryFields`) as one `memory` line; `held()` is
 * the embedded database once this process holds it. Installed first thing: until a process
 * handles SIGUSR2, the signal ends it.
 */
export function logMemoryOnSignal(held: () => Pick<Database, 'wasmMemoryBytes'> | undefined): void {
  process.on('SIGUSR2', () => log.info('memory', memoryFields(held())));
}
