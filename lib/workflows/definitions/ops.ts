import type { Activities } from '../activities';
import type {
  AgentMessageInput,
  CustomerSupportInput,
  DailyStandUpInput,
  HumanInterventionInput,
  PromptRobotInput,
  StartRobotInput,
  StopRobotInput,
  SyncEmailsInput,
  WebhookInput,
} from '../bodies';
import { WorkflowFailedError, type WorkflowContext } from '../definition';

type Ctx = WorkflowContext<Activities>;

/** The signal a human answers a humanIntervention run with. */
export const HUMAN_RESPONSE_SIGNAL = 'humanResponse';

/** Analyzes a support message and drafts a reply (model). */
export async function customerSupport(ctx: Ctx, input: CustomerSupportInput) {
  const a = ctx.activities;
  const profile = await a.getSiteProfile(input.site_id);
  const reply = await a.generateText(input.site_id, {
    purpose: 'customer-support-reply',
    system: `You are the support agent of ${profile.name}. Classify the message and draft a reply.`,
    prompt: JSON.stringify({ customer: { name: input.name, email: input.email }, message: input.message, origin: input.origin }),
  });
  return { conversationId: input.conversationId, reply };
}

/**
 * Syncs the site's IMAP mailbox: new messages (by UID, each once) are recorded, threaded to the
 * site's earlier messages and leads, and replies go to the email agent as commands; bounces and
 * automatic replies are recorded, never answered.
 */
export async function syncEmails(ctx: Ctx, input: SyncEmailsInput) {
  return ctx.activities.syncMailbox(input.site_id, input.since ?? null);
}

/** The site's figures over the window, with a line per topic. */
export async function dailyStandUp(ctx: Ctx, input: DailyStandUpInput) {
  const f = await ctx.activities.siteFigures(input.site_id, input.window_hours);
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'none';
  const summary = [
    `Leads: ${f.leads_new} new in the last ${f.window_hours} h, ${f.leads_total} in total (${list(f.leads_by_status)}).`,
    `Visitors: ${f.visitors} ${f.visitors === 1 ? 'person' : 'people'} in ${f.sessions} ${f.sessions === 1 ? 'session' : 'sessions'}, ${f.events} events` +
      (f.bot_sessions > 0 ? `; ${f.bot_sessions} bot ${f.bot_sessions === 1 ? 'visit' : 'visits'} left out.` : '.'),
    `Commands: ${list(f.commands_by_status)}.`,
  ];
  return { figures: f, summary };
}

/** Pauses until a human answers (signal `humanResponse`); the run's timeout bounds the wait (→ TIMED_OUT). */
export async function humanIntervention(ctx: Ctx, input: HumanInterventionInput) {
  const answer = await ctx.waitForSignal<unknown>(HUMAN_RESPONSE_SIGNAL);
  return { question: input.question, answer: answer ?? null };
}

/** Creates a robot instance, starts its browser and plans the activity (robot provider). */
export async function startRobot(ctx: Ctx, input: StartRobotInput) {
  return ctx.activities.robot(input.site_id, { action: 'start', activity: input.activity });
}

/** Stops a robot's browser. */
export async function stopRobot(ctx: Ctx, input: StopRobotInput) {
  return ctx.activities.robot(input.site_id, { action: 'stop', instance_id: input.instance_id });
}

/** Runs a prompt on a robot: the model plans browser actions, the robot performs and records them. */
export async function promptRobot(ctx: Ctx, input: PromptRobotInput) {
  return ctx.activities.robot(input.site_id, {
    action: 'prompt',
    instance_id: input.instance_id,
    prompt: input.prompt,
    ...(input.system_prompt ? { system_prompt: input.system_prompt } : {}),
    ...(input.tools ? { tools: input.tools } : {}),
  });
}

/** Records an inbound change event for the site. */
export async function webhook(ctx: Ctx, input: WebhookInput) {
  const recorded = await ctx.activities.recordWebhookEvent(ctx.siteId, {
    workflow_id: ctx.workflowId,
    event_type: input.type ?? null,
    table: input.table ?? null,
    payload: { schema: input.schema ?? null, record: input.record ?? null, old_record: input.old_record ?? null },
  });
  return { event_id: recorded.event_id, type: input.type ?? null, table: input.table ?? null };
}

/**
 * Pushes a message into an agent as the agent routes do: a command of the agent in a
 * conversation (new, or the one given), carried out in this run; the run ends with the agent's
 * answer and where to read it, or fails as the command did.
 */
export async function agentMessage(ctx: Ctx, input: AgentMessageInput) {
  const opened = await ctx.activities.openAgentMessage(input.site_id, {
    agent_id: input.agent_id,
    conversation_id: input.conversation_id,
    message: input.message,
  });
  const outcome = await ctx.activities.runAgentCommand(input.site_id, opened.command_id);
  if (outcome.status === 'failed') {
    throw new WorkflowFailedError(outcome.error?.code ?? 'COMMAND_FAILED', outcome.error?.message ?? 'The agent could not answer');
  }
  return {
    agent: opened.agent,
    conversation_id: opened.conversation_id,
    command_id: opened.command_id,
    status: outcome.status,
    answer: outcome.reply ?? null,
  };
}
