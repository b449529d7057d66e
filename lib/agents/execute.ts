import { APICallError, RetryError, stepCountIs, streamText, type ModelMessage } from 'ai';
import { onCommandChange } from '@/lib/commands/changes';
import { FINISHED_STATUSES, type AgentRole, type CommandError, type CommandStatus, type TokenUsage, type ToolCall } from '@/lib/commands/schema';
import { claimCommand, commandStatus, failCommand, failInterrupted, findCommand, type CommandRow } from '@/lib/commands/service';
import { currentDate } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { keyStatusOf } from '@/lib/keys/service';
import { findLead, toLead } from '@/lib/leads/service';
import { agentModel } from '@/lib/providers/llm';
import { getSettings } from '@/lib/settings/service';
import { getSite } from '@/lib/sites/service';
import { scheduleCommandDeadline } from './jobs';
import { attachConversation, completeCommand, getConversation } from './repo';
import { ROLES, systemPrompt } from './roles';
import { siteToolSet } from './tools';
import { commandTurn } from './turns';

/** Hears the reply as the model writes it (a streamed answer). */
export interface ReplyListener {
  onText?(delta: string): void;
}

/**
 * Runs one command to its end. Idempotent: a command that has finished (or that another worker
 * holds) is not run again. The only way a command is executed — by its workflow run, or in the
 * request that streams its reply.
 */
export async function executeCommand(siteId: string, commandId: string, listener?: ReplyListener): Promise<CommandStatus | undefined> {
  const row = await findCommand(siteId, commandId);
  if (!row || FINISHED_STATUSES.includes(row.status as CommandStatus)) return row?.status as CommandStatus | undefined;
  const claimed = await claimCommand(siteId, commandId, currentDate());
  if (claimed) {
    await scheduleCommandDeadline(siteId, commandId);
    await runClaimed(claimed, listener);
  }
  return (await findCommand(siteId, commandId))?.status as CommandStatus | undefined;
}

/**
 * A command's step on the workflow engine: runs it (once) and answers how it ended. The step
 * runs again only when its earlier attempt did not finish — its worker died — so a command found
 * `running` here was left by that attempt: it is recorded as failed/INTERRUPTED rather than run
 * again, since its tool calls may already have acted.
 */
export async function carryOutCommand(
  siteId: string,
  commandId: string,
): Promise<{ status: CommandStatus; error?: CommandError; reply?: string | null }> {
  await failInterrupted(siteId, commandId, currentDate());
  await executeCommand(siteId, commandId);
  const row = await findCommand(siteId, commandId);
  if (!row) return { status: 'failed', error: { code: 'NOT_FOUND', message: 'The command no longer exists' } };
  return { status: row.status as CommandStatus, reply: row.reply, ...(row.error ? { error: row.error as CommandError } : {}) };
}

/**
 * Stops a running command's model call once the command is no longer `running` — cancelled by its
 * site, or ended elsewhere (its deadline): told by the command's change as it commits
 * (lib/commands/changes.ts), then read once more, for a change committed before listening began.
 */
async function watchCancel(siteId: string, commandId: string): Promise<{ signal: AbortSignal; release(): void }> {
  const lost = new AbortController();
  const check = () =>
    commandStatus(siteId, commandId)
      .then((status) => status === 'running' || lost.abort(new Error('The command is no longer running')))
      .catch((error: unknown) => log.warn('command status check failed', { command_id: commandId, ...errorFields(error) }));
  const release = await onCommandChange((changed) => {
    if (!lost.signal.aborted && (changed === undefined || changed === commandId)) void check();
  });
  await check();
  return { signal: lost.signal, release };
}

const usageOf = (u: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): TokenUsage => ({
  input_tokens: u?.inputTokens ?? null,
  output_tokens: u?.outputTokens ?? null,
  total_tokens: u?.totalTokens ?? null,
});

const clip = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

/** What a failed model call is recorded as: the endpoint's status and message, never our internals. */
function modelFailure(error: unknown): CommandError {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause)) {
    return { code: 'MODEL_ERROR', message: clip(`The model endpoint answered ${cause.statusCode ?? 'with an error'}: ${cause.message}`) };
  }
  if (cause instanceof Error) return { code: 'MODEL_ERROR', message: clip(`The model call failed: ${cause.message}`) };
  return { code: 'MODEL_ERROR', message: 'The model call failed' };
}

/**
 * A call the model made that never reached a tool: one it was not offered (a read-only key's
 * agent calling a write tool) or with arguments that are not JSON. The model is told, and the
 * attempt is recorded like any call.
 */
function refusedCall(part: { toolName: string; input: unknown; error: unknown }, tools: Record<string, unknown> | undefined): ToolCall {
  const offered = Boolean(tools && part.toolName in tools);
  return {
    name: part.toolName,
    arguments: part.input ?? null,
    result: null,
    error: offered
      ? { code: 'INVALID_REQUEST', message: clip(part.error instanceof Error ? part.error.message : 'Invalid tool arguments') }
      : { code: 'TOOL_NOT_OFFERED', message: `${part.toolName} is not one of the tools this agent is offered` },
  };
}

async function promptFor(row: CommandRow): Promise<{ system: string; messages: ModelMessage[]; conversationId: string }> {
  const siteId = row.siteId;
  const conversationId = row.conversationId ?? (await attachConversation(siteId, row, commandTurn(row), currentDate()));
  const [site, settings, conversation] = await Promise.all([getSite(siteId), getSettings(siteId), getConversation(siteId, conversationId)]);
  const lead = conversation?.lead_id ? await findLead(siteId, conversation.lead_id) : undefined;
  const messages = conversation?.messages ?? [];
  const own = messages.findIndex((m) => m.command_id === row.id && m.role === 'user');
  const history = own >= 0 ? messages.slice(0, own + 1) : messages;
  return {
    system: systemPrompt(ROLES[row.agent as AgentRole], {
      siteName: site?.name ?? 'this site',
      settings,
      lead: lead ? toLead(lead) : undefined,
      visitorId: conversation?.visitor_id ?? undefined,
    }),
    messages: history.map((m) => ({ role: m.role, content: m.content })),
    conversationId,
  };
}

/** Runs a command this process has claimed (status `running`) and records its outcome. */
export async function runClaimed(row: CommandRow, listener?: ReplyListener): Promise<void> {
  const siteId = row.siteId;
  const watch = await watchCancel(siteId, row.id);
  const toolCalls: ToolCall[] = [];
  let usage: TokenUsage | null = null;
  try {
    const model = agentModel();
    // The agent acts with the key that asked: a key revoked (or expired) since then no longer acts.
    const keyState = row.keyId ? await keyStatusOf(siteId, row.keyId) : 'active';
    if (keyState !== 'active') {
      await failCommand(
        siteId,
        row.id,
        { code: 'UNAUTHORIZED', message: `The API key that created this command is ${keyState ?? 'deleted'}` },
        currentDate(),
      );
      return;
    }
    const role = ROLES[row.agent as AgentRole];
    const { system, messages, conversationId } = await promptFor(row);
    const ctx = {
      siteId,
      principal: {
        kind: 'apiKey' as const,
        keyId: row.keyId ?? '',
        siteId,
        scopes: row.keyScopes.filter((s): s is 'read' | 'write' => s === 'read' || s === 'write'),
      },
      requestId: row.id,
    };
    const timeout = AbortSignal.timeout(model.timeoutMs);
    const tools = role.usesTools ? siteToolSet(ctx, (call) => toolCalls.push(call)) : undefined;
    const result = streamText({
      model: model.model,
      system,
      messages,
      tools,
      stopWhen: stepCountIs(model.maxSteps),
      maxRetries: model.maxRetries,
      abortSignal: AbortSignal.any([timeout, watch.signal]),
      // Errors arrive as stream parts below and are recorded on the command, not printed.
      onError: () => undefined,
    });
    let reply = '';
    let failure: unknown;
    try {
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          reply += part.text;
          listener?.onText?.(part.text);
        } else if (part.type === 'finish') usage = usageOf(part.totalUsage);
        else if (part.type === 'tool-error') toolCalls.push(refusedCall(part, tools));
        else if (part.type === 'error') failure ??= part.error;
        else if (part.type === 'abort') failure ??= new Error('aborted');
      }
    } catch (error) {
      failure ??= error;
    }
    if (watch.signal.aborted) return; // cancelled (or failed as interrupted): its record is final already
    if (timeout.aborted) {
      await failCommand(
        siteId,
        row.id,
        { code: 'TIMEOUT', message: `The model did not finish within ${model.timeoutMs} ms (LLM_TIMEOUT_MS)` },
        currentDate(),
        { toolCalls, usage },
      );
      return;
    }
    if (failure !== undefined) {
      await failCommand(siteId, row.id, modelFailure(failure), currentDate(), { toolCalls, usage });
      return;
    }
    if (!reply.trim()) {
      const message = `The model gave no reply within ${model.maxSteps} steps (LLM_MAX_STEPS)`;
      await failCommand(siteId, row.id, { code: 'MODEL_ERROR', message }, currentDate(), { toolCalls, usage });
      return;
    }
    await completeCommand(siteId, row.id, conversationId, { reply, toolCalls, usage: usage ?? usageOf(undefined) }, currentDate());
  } catch (error) {
    const recorded =
      error instanceof ApiError ? { code: error.code, message: error.message } : { code: 'SYSTEM_ERROR', message: 'The command failed unexpectedly' };
    if (!(error instanceof ApiError)) log.error('command failed', { command_id: row.id, site_id: siteId, ...errorFields(error) });
    await failCommand(siteId, row.id, recorded, currentDate(), { toolCalls, usage }).catch((e) =>
      log.error('could not record a command failure', { command_id: row.id, ...errorFields(e) }),
    );
  } finally {
    watch.release();
  }
}
