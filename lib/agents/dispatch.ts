import { defineProvider, provider } from '@/lib/core/providers';
import { startCommandRun } from '@/lib/workflows/service';

/**
 * Where a created command goes to be run outside the request that created it: a run of the
 * `agentCommandWorkflow` on the configured workflow engine (embedded or Temporal), whose one step
 * is `executeCommand`. The command row stays the record clients read; the run is how it gets
 * executed — durably, by whichever worker takes it, visible in GET /api/logs/workflows.
 */
export interface CommandDispatcher {
  dispatch(siteId: string, commandId: string): Promise<void>;
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    commandDispatcher: CommandDispatcher;
  }
}

/** The workflow engine's dispatcher (the default). */
export const engineDispatcher: CommandDispatcher = {
  async dispatch(siteId, commandId) {
    await startCommandRun(siteId, commandId);
  },
};

defineProvider('commandDispatcher', () => engineDispatcher);

/** Hands a created (pending) command to whoever runs commands outside the request. */
export const dispatchCommand = (siteId: string, commandId: string): Promise<void> => provider('commandDispatcher').dispatch(siteId, commandId);
