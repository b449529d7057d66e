import { config } from '@/lib/core/config';
import { defineProvider, provider } from '@/lib/core/providers';
import type { WorkflowEngine } from '../engine';
import { EmbeddedEngine } from './embedded';
import { temporalSettings, type TemporalSettings } from './temporal/settings';

/**
 * The workflow engine slot of the provider container: the client side only (start, list, get,
 * cancel, signal). `createConfiguredEngine` is the one place that picks the adapter from config:
 * Temporal when TEMPORAL_ADDRESS is set, else embedded (durable on the app's database). Runs are
 * executed by the worker entries (`lib/worker`), which alone hold the activities.
 */
declare module '@/lib/core/providers' {
  interface ProviderMap {
    workflowEngine: WorkflowEngine;
  }
}

export function createConfiguredEngine(): WorkflowEngine {
  const temporal = temporalSettings(config());
  return temporal ? temporalClient(temporal) : new EmbeddedEngine();
}

/**
 * The Temporal adapter, loaded on first use: its gRPC stack and protobuf definitions (~35 MB
 * resident) stay out of every process that runs the embedded engine.
 */
function temporalClient(settings: TemporalSettings): WorkflowEngine {
  let loaded: Promise<WorkflowEngine> | undefined;
  const engine = () => (loaded ??= import('./temporal/engine').then(({ TemporalEngine }) => new TemporalEngine(settings)));
  return {
    kind: 'temporal',
    start: async (options) => (await engine()).start(options),
    startWithinCap: async (options, cap) => (await engine()).startWithinCap(options, cap),
    list: async (query) => (await engine()).list(query),
    get: async (siteId, workflowId) => (await engine()).get(siteId, workflowId),
    cancel: async (siteId, workflowId) => (await engine()).cancel(siteId, workflowId),
    terminate: async (siteId, workflowId, reason) => (await engine()).terminate(siteId, workflowId, reason),
    signal: async (siteId, workflowId, name, payload) => (await engine()).signal(siteId, workflowId, name, payload),
    findByIdempotencyKey: async (siteId, key) => (await engine()).findByIdempotencyKey(siteId, key),
    countRunning: async (siteId) => (await engine()).countRunning(siteId),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}

defineProvider('workflowEngine', createConfiguredEngine, (engine) => engine.close());

export const workflowEngine = () => provider('workflowEngine');
