import type { AgentRole, Command, CreateCommandInput } from '@/lib/commands/schema';
import { failCommand, findCommand, getCommand } from '@/lib/commands/service';
import { currentDate } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import type { ApiKeyPrincipal } from '@/lib/core/principal';
import type { Db } from '@/lib/db/client';
import { findLead } from '@/lib/leads/service';
import { agentModel } from '@/lib/providers/llm';
import { findVisitor } from '@/lib/visitors/service';
import { dispatchCommand } from './dispatch';
import { runClaimed, type ReplyListener } from './execute';
import { scheduleCommandDeadline } from './jobs';
import { getConversation, openCommand, type OpenCommand } from './repo';
import type { AgentMessageBody, ContentEditorBody, EmailReplyBody } from './schema';
import { commandTurn, contentEditTurn, emailTurn } from './turns';

/** One request to an agent, whatever route it came from: the command to open, less what the credential and clock give. */
export type AgentRequest = Pick<OpenCommand, 'agent' | 'conversationId' | 'leadId' | 'visitorId' | 'userContent' | 'title' | 'task' | 'parameters'>;

const withoutSite = <T extends { site_id: string }>({ site_id: _site, ...rest }: T) => rest as Record<string, unknown>;

export const messageRequest = (agent: AgentRole, body: AgentMessageBody): AgentRequest => ({
  agent,
  conversationId: body.conversation_id,
  leadId: body.lead_id,
  visitorId: body.visitor_id,
  userContent: body.message,
  task: 'message',
  parameters: withoutSite(body),
});

export const emailReplyRequest = (body: EmailReplyBody): AgentRequest => ({
  agent: 'email',
  conversationId: body.conversation_id,
  leadId: body.lead_id,
  visitorId: body.visitor_id,
  userContent: emailTurn(body),
  title: `Email from ${body.from}${body.subject ? `: ${body.subject}` : ''}`,
  task: 'email reply',
  parameters: withoutSite(body),
});

export const contentEditRequest = (body: ContentEditorBody): AgentRequest => ({
  agent: 'copywriter',
  conversationId: body.conversation_id,
  userContent: contentEditTurn(body),
  title: `Edit: ${body.instruction}`,
  task: 'content edit',
  parameters: withoutSite(body),
});

/**
 * Who sends a request to an agent: an API key of the site (its scopes decide the agent's tools),
 * or the site's owner in the console (no key; every tool of the site).
 */
export type AgentCaller = Pick<ApiKeyPrincipal, 'siteId' | 'scopes'> & { keyId: string | null };

export const siteOwnerCaller = (siteId: string): AgentCaller => ({ siteId, keyId: null, scopes: ['read', 'write'] });

/** What a submitted request answers: the command to poll (or being streamed) and its conversation. */
export interface Submitted {
  command_id: string;
  conversation_id: string;
  status: 'pending' | 'running';
  site_id: string;
  created_at: string;
}

async function open(caller: AgentCaller, r: AgentRequest & { description: string }, claim: boolean): Promise<Submitted> {
  // No model, no command: nothing is written that could never run.
  agentModel();
  const siteId = caller.siteId;
  if (r.leadId) found(await findLead(siteId, r.leadId), 'Lead');
  if (r.visitorId) found(await findVisitor(siteId, r.visitorId), 'Visitor');
  const { command, conversationId } = await openCommand(siteId, {
    ...r,
    keyId: caller.keyId,
    keyScopes: caller.scopes,
    now: currentDate(),
    claim,
    ...(claim ? { also: (tx: Db, command: { id: string }) => scheduleCommandDeadline(siteId, command.id, tx) } : {}),
  });
  if (!claim) {
    try {
      await dispatchCommand(siteId, command.id);
    } catch (error) {
      // A command that no run will carry out is recorded as failed, not left pending.
      log.error('command dispatch failed', { site_id: siteId, command_id: command.id, ...errorFields(error) });
      await failCommand(
        siteId,
        command.id,
        { code: 'WORKFLOW_EXECUTION_ERROR', message: 'The command could not be handed to the workflow engine' },
        currentDate(),
      );
      throw new ApiError('WORKFLOW_EXECUTION_ERROR', 'The command could not be started; it is recorded as failed');
    }
  }
  return {
    command_id: command.id,
    conversation_id: conversationId,
    status: claim ? 'running' : 'pending',
    site_id: siteId,
    created_at: command.createdAt.toISOString(),
  };
}

const describe = (r: AgentRequest) => ({ ...r, description: r.userContent.slice(0, 10_000) });

/** Queues the request for its agent: answered at once, run outside the request. */
export const submitAgentRequest = (caller: AgentCaller, r: AgentRequest): Promise<Submitted> => open(caller, describe(r), false);

/**
 * Claims the request for this process and returns a function that runs it, telling `listener`
 * the reply as it is written; the command is recorded exactly as a queued one (and finishes even
 * when the listener has gone away).
 */
export async function startStreamedRequest(
  caller: AgentCaller,
  r: AgentRequest,
): Promise<{ submitted: Submitted; run(listener: ReplyListener): Promise<Command | undefined> }> {
  const submitted = await open(caller, describe(r), true);
  return {
    submitted,
    run: async (listener) => {
      const row = await findCommand(submitted.site_id, submitted.command_id);
      if (row) await runClaimed(row, listener);
      return getCommand(submitted.site_id, submitted.command_id);
    },
  };
}

/**
 * An email received in the site's mailbox, for the email agent: queued exactly like a request of
 * `/api/agents/email/reply`, offered the read tools only (a stranger's words never change the
 * site's records).
 */
export const submitInboundEmail = (siteId: string, body: EmailReplyBody): Promise<Submitted> =>
  open({ siteId, keyId: null, scopes: ['read'] }, describe(emailReplyRequest(body)), false);

/** `POST /sites/{site_id}/commands`: the CMO agent carries the command out (task, description, parameters as its instruction). */
export const submitSiteCommand = (caller: ApiKeyPrincipal, body: CreateCommandInput) =>
  open(
    caller,
    { agent: 'cmo', userContent: commandTurn(body), title: body.task, task: body.task, description: body.description, parameters: body.parameters },
    false,
  );

/** The site's conversation with its messages; 404 for one of another site. */
export const siteConversation = async (siteId: string, conversationId: string) =>
  found(await getConversation(siteId, conversationId), 'Conversation');

export { getConversation, listConversations } from './repo';
