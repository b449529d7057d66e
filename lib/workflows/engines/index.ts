import { defineProvider, provider } from '@/lib/core/providers';
import type { WorkflowEngine } from '../engine';
import { config } from '@/lib/core/config';
import { EmbeddedEngine } from './embedded';
import { TemporalEngine } from './temporal/engine';
import { temporalSettings } from './temporal/settings';

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
  return temporal ? new TemporalEngine(temporal) : new EmbeddedEngine();
}

defineProvider('workflowEngine', createConfiguredEngine, (engine) => engine.close());

export const workflowEngine = () => provider('workflowEngine');
