import type { z } from 'zod';
import { AgentAcceptedSchema, agentMessageBodySchema } from '@/lib/agents/schema';
import { messageRequest, startStreamedRequest, submitAgentRequest, type AgentCaller, type AgentRequest } from '@/lib/agents/service';
import type { AgentRole } from '@/lib/commands/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute, type RouteHandler } from './define-route';
import { acceptsEventStream, eventStreamResponse } from './sse';

const KEYS = `

**Keys.** A key of the site with the \`write\` scope: the request records a command, a conversation and its messages (a read-only key: 403 FORBIDDEN, nothing recorded). The model is offered the tools the key's scopes allow.`;

/** How an agent's answer comes: queued (202) or streamed. */
export const STREAMING = `

**Asynchronous.** The answer is 202 with the command at once; poll \`GET /sites/{site_id}/commands/{command_id}\` (or read the conversation) for the reply, tool calls and token usage. Status: \`pending\` → \`running\` → \`completed\` | \`failed\` (or \`cancelled\`).

**Streaming.** With \`Accept: text/event-stream\` the answer is 200 with server-sent events instead: \`accepted\` (\`{command_id, conversation_id, status}\`), \`delta\` (\`{text}\`, the reply as it is written), then \`done\` (the command as the detail route shows it, completed or failed). The command and the conversation are recorded exactly as for a polled request.

Without a configured model (LLM_BASE_URL, LLM_MODEL) the answer is 503 MODEL_NOT_CONFIGURED and nothing is recorded.`;

/**
 * An agent's route: `POST /api/agents/...` with an API key (Bearer or x-api-key), a strict body,
 * answered 202 with the queued command, or streamed as server-sent events. The request records a
 * command, a conversation and messages, so it needs the write scope like `POST /sites/{site_id}/commands`.
 */
export function agentRoute<B extends z.ZodType<{ site_id: string }>>(o: {
  summary: string;
  description: string;
  body: B;
  request: (body: z.infer<B>) => AgentRequest;
}): RouteHandler {
  return defineRoute({
    summary: o.summary,
    description: o.description + KEYS + STREAMING,
    tags: ['Agents'],
    auth: policies.keyWrite,
    body: o.body,
    response: AgentAcceptedSchema,
    status: 202,
    errors: ['NOT_FOUND', 'MODEL_NOT_CONFIGURED', 'WORKFLOW_EXECUTION_ERROR'],
    handler: ({ req, principal, body }) => answerAgentRequest(req, principal, o.request(body as z.infer<B>)),
  });
}

const MESSAGE_CONTEXT =
  " Its system prompt is built from the site's settings (about, products, goals, brand voice and tone, forbidden words…). With `lead_id` the lead's details are part of its context; `conversation_id` continues a conversation.";

/** `POST /api/agents/<role>/message`: a message to one of the site's agents, `description` saying what that agent does. */
export const agentMessageRoute = (role: AgentRole, o: { summary: string; description: string }): RouteHandler =>
  agentRoute({
    summary: o.summary,
    description: o.description + MESSAGE_CONTEXT,
    body: agentMessageBodySchema,
    request: (body) => messageRequest(role, body),
  });

/** The answer to a request to an agent: 202 with the queued command, or its reply streamed as server-sent events. */
export async function answerAgentRequest(req: Request, caller: AgentCaller, request: AgentRequest) {
  if (!acceptsEventStream(req)) {
    const { command_id, conversation_id, status } = await submitAgentRequest(caller, request);
    return { command_id, conversation_id, status };
  }
  const { submitted, run } = await startStreamedRequest(caller, request);
  return eventStreamResponse(200, async (sink) => {
    sink.send('accepted', { command_id: submitted.command_id, conversation_id: submitted.conversation_id, status: submitted.status });
    const command = await run({ onText: (text) => sink.send('delta', { text }) });
    sink.send('done', command);
  });
}
