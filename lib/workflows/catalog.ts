import type { z } from 'zod';
import { messageAgent } from '@/lib/commands/message-agent';
import { ApiError } from '@/lib/core/errors';
import { assertMembersOfSite } from '@/lib/members/service';
import type { Activities } from './activities';
import * as bodies from './bodies';
import type { WorkflowDefinition } from './definition';
import { workflowDefinitions, type WorkflowType } from './definitions';

/**
 * The workflow catalog (spec §4.7): every name `POST /api/workflow/{name}` accepts, its type name
 * (spec §4.8), the schema of its body (which is also the run's input) and its definition.
 */
export interface CatalogEntry {
  name: string;
  /** What the console calls it ("Lead follow-up"); `name` stays the API's identifier. */
  label: string;
  type: WorkflowType;
  group: 'CRM' | 'Marketing' | 'Ops';
  purpose: string;
  body: z.ZodType<Record<string, unknown>>;
  definition: WorkflowDefinition<Activities, never>;
  /** Whole-run timeout for an input (→ TIMED_OUT); default 1 hour. */
  timeoutMs?: (input: Record<string, unknown>) => number;
  /** Checks of the input against the site's data before the run starts (400 with the reason). */
  precheck?: (siteId: string, input: Record<string, unknown>) => Promise<void>;
  /**
   * The run that records each inbound change event (POST /api/workflow/webhook): its body is the
   * event, with no `site_id` of its own, and no subscription may start it (the event would be recorded twice).
   */
  recordsChangeEvents?: true;
}

const HOUR = 3_600_000;

const entries: Omit<CatalogEntry, 'definition'>[] = [
  {
    name: 'leadGeneration',
    label: 'Lead generation',
    type: 'leadGenerationWorkflow',
    group: 'CRM',
    purpose: 'Mine leads for the ICP',
    body: bodies.leadGenerationBody,
  },
  {
    name: 'leadFollowUp',
    label: 'Lead follow-up',
    type: 'leadFollowUpWorkflow',
    group: 'CRM',
    purpose: 'Follow up on a cold lead',
    body: bodies.leadFollowUpBody,
  },
  {
    name: 'leadResearch',
    label: 'Lead research',
    type: 'leadResearchWorkflow',
    group: 'CRM',
    purpose: 'Research a lead set',
    body: bodies.leadResearchBody,
  },
  {
    name: 'enrichLead',
    label: 'Enrich a lead',
    type: 'enrichLeadWorkflow',
    group: 'CRM',
    purpose: 'Fill missing contact fields',
    body: bodies.enrichLeadBody,
  },
  {
    name: 'leadInvalidation',
    label: 'Lead clean-up',
    type: 'leadInvalidationWorkflow',
    group: 'CRM',
    purpose: 'Mark leads with unusable contact data as lost',
    body: bodies.leadInvalidationBody,
  },
  {
    name: 'assignLeads',
    label: 'Assign leads',
    type: 'assignLeadsWorkflow',
    group: 'CRM',
    purpose: 'Share unassigned leads between members',
    body: bodies.assignLeadsBody,
    // Leads go to the site's members only.
    precheck: (siteId, input) => assertMembersOfSite(siteId, (input as bodies.AssignLeadsInput).assignee_ids),
  },
  {
    name: 'analyzeSite',
    label: 'Site analysis',
    type: 'analyzeSiteWorkflow',
    group: 'CRM',
    purpose: 'Fetch a page and check it against the ICP',
    body: bodies.analyzeSiteBody,
  },
  {
    name: 'idealClientProfileMining',
    label: 'Ideal client profile',
    type: 'idealClientProfileMiningWorkflow',
    group: 'CRM',
    purpose: 'Build or refresh the ICP',
    body: bodies.idealClientProfileMiningBody,
  },
  {
    name: 'keyAccountGeneration',
    label: 'Key accounts',
    type: 'keyAccountGenerationWorkflow',
    group: 'CRM',
    purpose: 'Rank companies into a key-account list',
    body: bodies.keyAccountGenerationBody,
  },
  {
    name: 'buildSegments',
    label: 'Build segments',
    type: 'buildSegmentsWorkflow',
    group: 'Marketing',
    purpose: 'Cluster leads into segments',
    body: bodies.buildSegmentsBody,
  },
  {
    name: 'buildSegmentsICP',
    label: 'Segments from the ICP',
    type: 'buildSegmentsICPWorkflow',
    group: 'Marketing',
    purpose: 'Segments from the ICP',
    body: bodies.buildSegmentsICPBody,
  },
  {
    name: 'buildCampaigns',
    label: 'Build campaigns',
    type: 'buildCampaignsWorkflow',
    group: 'Marketing',
    purpose: 'Campaigns for a segment',
    body: bodies.buildCampaignsBody,
  },
  {
    name: 'buildContent',
    label: 'Draft content',
    type: 'buildContentWorkflow',
    group: 'Marketing',
    purpose: 'Draft content',
    body: bodies.buildContentBody,
  },
  {
    name: 'customerSupport',
    label: 'Customer support reply',
    type: 'customerSupportMessageWorkflow',
    group: 'Ops',
    purpose: 'Analyze a ticket, draft a reply',
    body: bodies.customerSupportBody,
  },
  {
    name: 'syncEmails',
    label: 'Sync the mailbox',
    type: 'syncEmailsWorkflow',
    group: 'Ops',
    purpose: 'Pull mailbox messages and route them',
    body: bodies.syncEmailsBody,
  },
  {
    name: 'dailyStandUp',
    label: 'Daily stand-up',
    type: 'dailyStandUpWorkflow',
    group: 'Ops',
    purpose: "The site's figures over the last day",
    body: bodies.dailyStandUpBody,
  },
  {
    name: 'humanIntervention',
    label: 'Ask a person',
    type: 'humanInterventionWorkflow',
    group: 'Ops',
    purpose: 'Pause for a human answer',
    body: bodies.humanInterventionBody,
    timeoutMs: (input) => Number(input.timeout_seconds) * 1000,
  },
  {
    name: 'startRobot',
    label: 'Start a robot',
    type: 'startRobotWorkflow',
    group: 'Ops',
    purpose: 'Start a remote-browser robot',
    body: bodies.startRobotBody,
  },
  { name: 'stopRobot', label: 'Stop a robot', type: 'stopRobotWorkflow', group: 'Ops', purpose: 'Stop a robot', body: bodies.stopRobotBody },
  {
    name: 'promptRobot',
    label: 'Prompt a robot',
    type: 'promptRobotWorkflow',
    group: 'Ops',
    purpose: 'Prompt a robot',
    body: bodies.promptRobotBody,
  },
  {
    name: 'webhook',
    label: 'Record a change event',
    type: 'webhookWorkflow',
    group: 'Ops',
    purpose: 'Record an inbound change event',
    body: bodies.webhookBody,
    recordsChangeEvents: true,
  },
  {
    name: 'agentMessage',
    label: 'Message an agent',
    type: 'agentMessageWorkflow',
    group: 'Ops',
    purpose: 'Push a message into an agent',
    body: bodies.agentMessageBody,
    // The agent named and the conversation continued must exist on the site.
    precheck: async (siteId, input) => {
      await messageAgent(siteId, input as bodies.AgentMessageInput);
    },
  },
];

export const workflowCatalog: Record<string, CatalogEntry> = Object.fromEntries(
  entries.map((e) => [e.name, { ...e, definition: workflowDefinitions[e.type] as WorkflowDefinition<Activities, never> }]),
);

export const WORKFLOW_NAMES = entries.map((e) => e.name);
export const WORKFLOW_TYPES = entries.map((e) => e.type);

/** The run of an agent command: not in the catalog (started only when a command is created), listed with the others. */
export const COMMAND_RUN_TYPE = 'agentCommandWorkflow' satisfies WorkflowType;

/** Every type a site's runs can have. */
export const RUN_TYPES: WorkflowType[] = [...WORKFLOW_TYPES, COMMAND_RUN_TYPE];

/** A run type as a person reads it: the catalog's label, "Agent command" for a command's run, else the type itself. */
export function runTypeLabel(type: string): string {
  if (type === COMMAND_RUN_TYPE) return 'Agent command';
  return entries.find((e) => e.type === type)?.label ?? type;
}

export function catalogEntry(name: string): CatalogEntry | undefined {
  return Object.hasOwn(workflowCatalog, name) ? workflowCatalog[name] : undefined;
}

/** The entry `POST /api/workflow/{name}` starts: 404 for a name the catalog does not have. */
export function workflowNamed(name: string): CatalogEntry {
  const entry = catalogEntry(name);
  if (!entry) throw new ApiError('NOT_FOUND', `Unknown workflow: ${name}`);
  return entry;
}

export const runTimeoutMs = (entry: CatalogEntry, input: Record<string, unknown>) => entry.timeoutMs?.(input) ?? HOUR;
