import type { Activities } from '../activities';
import { WorkflowFailedError, type WorkflowContext } from '../definition';

/** The run of one agent command: the command row (created by an agent route or `POST /sites/{id}/commands`) is its record. */
export interface AgentCommandInput {
  command_id: string;
}

/**
 * Carries out an agent's command as one step. The run ends as the command does: completed or
 * cancelled → COMPLETED with that status, failed → FAILED with the command's error code and
 * message. The step is not repeated after a crash: a command left running by a process that died
 * is recorded as failed (INTERRUPTED) instead, since its tool calls may already have acted.
 */
export async function agentCommand(ctx: WorkflowContext<Activities>, input: AgentCommandInput) {
  const outcome = await ctx.activities.runAgentCommand(ctx.siteId, input.command_id);
  if (outcome.status === 'failed') {
    throw new WorkflowFailedError(outcome.error?.code ?? 'COMMAND_FAILED', outcome.error?.message ?? 'The command failed');
  }
  return { command_id: input.command_id, status: outcome.status };
}
