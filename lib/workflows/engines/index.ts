import { defineProvider, provider } from '@/lib/core/providers';
import type { WorkflowEngine } from '../engine';
import { EmbeddedEngine } from './embedded';

/**
 * The workflow engine slot of the provider container. `createConfiguredEngine` is the one place
 * that picks the adapter from config: embedded (durable on the app's database) by default.
 */
declare module '@/lib/core/providers' {
  interface ProviderMap {
    workflowEngine: WorkflowEngine;
  }
}

export function createConfiguredEngine(): WorkflowEngine {
  return new EmbeddedEngine();
}

defineProvider('workflowEngine', createConfiguredEngine, (engine) => engine.close());

export const workflowEngine = () => provider('workflowEngine');

/** Starts executing runs in this process when the engine runs them itself (embedded). */
export async function startWorkflowWorker(): Promise<WorkflowEngine> {
  const engine = workflowEngine();
  if (engine instanceof EmbeddedEngine) await engine.startWorker();
  return engine;
}
