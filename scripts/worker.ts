/**
 * The worker: every background job of the product — workflow runs (embedded engine; on Temporal,
 * a Temporal worker), webhook deliveries, robot expiry, command deadlines, retention.
 *
 *   npm run worker
 *
 * Run it beside a web process started with WORKERS=off (serverless), as many as the load needs,
 * on the shared Postgres (DATABASE_URL). `npm start` starts one itself as a child process unless
 * WORKERS=off; with the embedded database that child also holds PGlite and serves it to the web
 * process over a Unix socket (DATA_DIR/run), since PGlite allows one process per data directory.
 */
import { workerMain } from '@/lib/worker/process';

workerMain().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
