/**
 * Runs the test-only Upstash REST bridge as its own process (the benchmark uses it so the bridge
 * does not share a CPU with the load generator). Prints `{"url","token"}` once listening.
 *   REDIS_URL=redis://127.0.0.1:6379 tsx tests/helpers/upstash-bridge-cli.ts
 */
import { startUpstashBridge } from './upstash-bridge';

void startUpstashBridge({ redisUrl: process.env.REDIS_URL }).then((bridge) => {
  process.stdout.write(JSON.stringify({ url: bridge.url, token: bridge.token }) + '\n');
  const stop = () => void bridge.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
