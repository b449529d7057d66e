import type { Activities } from '../activities';
import type { WorkflowDefinition } from '../definition';
import * as commands from './commands';
import * as crm from './crm';
import * as marketing from './marketing';
import * as ops from './ops';

/**
 * Every definition by workflow type name (spec §4.8 names where the spec gives one). Pure: this
 * module and what it imports carry no side effects, so the Temporal worker can bundle it.
 */
export const workflowDefinitions = {
  leadGenerationWorkflow: crm.leadGeneration,
  leadFollowUpWorkflow: crm.leadFollowUp,
  leadResearchWorkflow: crm.leadResearch,
  enrichLeadWorkflow: crm.enrichLead,
  leadInvalidationWorkflow: crm.leadInvalidation,
  assignLeadsWorkflow: crm.assignLeads,
  analyzeSiteWorkflow: crm.analyzeSite,
  idealClientProfileMiningWorkflow: crm.idealClientProfileMining,
  keyAccountGenerationWorkflow: crm.keyAccountGeneration,
  buildSegmentsWorkflow: marketing.buildSegments,
  buildSegmentsICPWorkflow: marketing.buildSegmentsICP,
  buildCampaignsWorkflow: marketing.buildCampaigns,
  buildContentWorkflow: marketing.buildContent,
  customerSupportMessageWorkflow: ops.customerSupport,
  syncEmailsWorkflow: ops.syncEmails,
  dailyStandUpWorkflow: ops.dailyStandUp,
  humanInterventionWorkflow: ops.humanIntervention,
  startRobotWorkflow: ops.startRobot,
  stopRobotWorkflow: ops.stopRobot,
  promptRobotWorkflow: ops.promptRobot,
  webhookWorkflow: ops.webhook,
  agentMessageWorkflow: ops.agentMessage,
  agentCommandWorkflow: commands.agentCommand,
} satisfies Record<string, WorkflowDefinition<Activities, never>>;

export type WorkflowType = keyof typeof workflowDefinitions;
export { HUMAN_RESPONSE_SIGNAL } from './ops';
