import path from 'node:path';
import { bundleWorkflowCode, NativeConnection, Worker, type ActivityInterceptorsFactory, type WorkflowBundle } from '@temporalio/worker';
import type { TemporalSettings } from './settings';
import { connectionOptions } from './settings';

/** The bundle entry: every catalog definition wrapped as a Temporal workflow named by its type. */
export const WORKFLOWS_PATH = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/workflows/engines/temporal/workflows.ts');

/** Definitions import through the `@/` alias, as everywhere in the code base. */
function webpackConfigHook<C extends { resolve?: { alias?: unknown } }>(config: C): C {
  const alias = (config.resolve?.alias ?? {}) as Record<string, string>;
  config.resolve = { ...config.resolve, alias: { ...alias, '@': process.cwd() } };
  return config;
}

/**
 * Bundles the workflow code once (webpack, a few seconds); a process that starts several
 * workers, or a test run, reuses the bundle.
 */
export function bundleWorkflows(workflowsPath = WORKFLOWS_PATH): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath, webpackConfigHook });
}

export interface TemporalWorkerOptions {
  settings: TemporalSettings;
  /** The activities implementation shared with the embedded engine. */
  activities: object;
  /** A ready bundle; without one the worker bundles WORKFLOWS_PATH itself. */
  workflowBundle?: WorkflowBundle;
}

export interface TemporalWorker {
  worker: Worker;
  /** Polls the task queue until `shutdown()`; resolves once in-flight tasks have finished. */
  run(): Promise<void>;
  shutdown(): void;
}

/**
 * An activity scheduled with a heartbeat timeout (a sequence step's send) says it is alive while
 * it runs, so a slow attempt is never taken from a live worker, and one whose worker died is
 * retried once the timeout passed — the embedded engine's job expiry, on Temporal.
 */
const heartbeatWhileRunning: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const timeoutMs = ctx.info.heartbeatTimeoutMs;
      if (!timeoutMs) return next(input);
      const beat = setInterval(() => ctx.heartbeat(), Math.max(200, timeoutMs / 3));
      try {
        return await next(input);
      } finally {
        clearInterval(beat);
      }
    },
  },
});

/**
 * A worker on the configured task queue that executes the catalog's workflows and the shared
 * activities. It drains in-flight activities for up to `shutdownGraceTime` when asked to stop.
 */
export async function createTemporalWorker(options: TemporalWorkerOptions): Promise<TemporalWorker> {
  const connection = await NativeConnection.connect(connectionOptions(options.settings));
  try {
    const worker = await Worker.create({
      connection,
      namespace: options.settings.namespace,
      taskQueue: options.settings.taskQueue,
      activities: options.activities,
      workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
      shutdownGraceTime: '30 seconds',
      interceptors: { activity: [heartbeatWhileRunning] },
    });
    return {
      worker,
      run: async () => {
        try {
          await worker.run();
        } finally {
          await connection.close();
        }
      },
      shutdown: () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
