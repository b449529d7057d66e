/**
 * Child process for the shared-limiter test: one "app instance" using the configured limiter
 * (RATE_LIMIT_BACKEND=upstash through the test bridge). Waits for "go" on stdin, then either
 * counts `WORKER_REQUESTS` requests against one identifier (mode `limit`) or takes as many
 * concurrency slots as it can (mode `acquire`), and prints the outcome as one JSON line.
 */
import { createInterface } from 'node:readline';
import { rateLimiter } from '@/lib/ratelimit';

const mode = process.env.WORKER_MODE ?? 'limit';
const identifier = process.env.WORKER_IDENTIFIER ?? 'shared';
const requests = Number(process.env.WORKER_REQUESTS ?? 10);
const limit = Number(process.env.WORKER_LIMIT ?? 10);
const windowMs = Number(process.env.WORKER_WINDOW_MS ?? 86_400_000);

async function main() {
  const limiter = rateLimiter();
  if (!limiter) throw new Error('RATE_LIMIT_BACKEND must not be none');
  const input = createInterface({ input: process.stdin });
  // One iterator for the whole run: leaving a for-await loop would close the interface.
  const lines = input[Symbol.asyncIterator]();
  const waitFor = async (word: string) => {
    for (let line = await lines.next(); !line.done; line = await lines.next()) if (line.value.trim() === word) return;
    throw new Error(`stdin closed before "${word}"`);
  };
  process.stdout.write('ready\n');
  await waitFor('go');
  if (mode === 'limit') {
    const results = await Promise.all(Array.from({ length: requests }, () => limiter.limit(identifier, { limit, windowMs })));
    const allowed = results.filter((r) => r.success).length;
    process.stdout.write(JSON.stringify({ allowed, denied: results.length - allowed }) + '\n');
  } else {
    const slots = await Promise.all(Array.from({ length: requests }, () => limiter.acquire(identifier, limit)));
    const held = slots.filter(Boolean);
    process.stdout.write(JSON.stringify({ acquired: held.length }) + '\n');
    await waitFor('release');
    await Promise.all(held.map((slot) => slot!.release()));
    process.stdout.write(JSON.stringify({ released: held.length }) + '\n');
  }
  input.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(String(error?.stack ?? error) + '\n');
    process.exit(1);
  },
);
