import { defineProvider, provider } from '@/lib/core/providers';
import type { WorkflowEngine } from '../engine';
import { config } from '@/lib/core/config';
import { EmbeddedEngine } from './embedded';
import { TemporalEngine } from './temporal/engine';
import { temporalSettings } from './temporal/settings';

/**
 * The workflow engine slot of the provider container. `createConfiguredEngine` is the one place
 * that picks the adapter from config: Temporal when TEMPORAL_ADDRESS is set (runs execute in
 * `npm run worker:temporal` processes), else embedded (durable on the app's database).
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

/** Starts executing runs in this process when the engine runs them itself (embedded). */
export async function startWorkflowWorker(): Promise<WorkflowEngine> {
  const engine = workflowEngine();
  if (engine instanceof EmbeddedEngine) await engine.startWorker();
  return engine;
}
