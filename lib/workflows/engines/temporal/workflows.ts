/**
 * The Temporal bundle entry (`worker.ts` bundles this file): every catalog definition as a
 * Temporal workflow named by its type (spec §4.8). Temporal finds a workflow by its export name,
 * so each is a named export; a unit test checks this list against the catalog.
 */
import { workflowDefinitions as definitions } from '@/lib/workflows/definitions';
import { temporalWorkflow } from './wrap';

export const leadGenerationWorkflow = temporalWorkflow(definitions.leadGenerationWorkflow);
export const leadFollowUpWorkflow = temporalWorkflow(definitions.leadFollowUpWorkflow);
export const leadResearchWorkflow = temporalWorkflow(definitions.leadResearchWorkflow);
export const enrichLeadWorkflow = temporalWorkflow(definitions.enrichLeadWorkflow);
export const leadInvalidationWorkflow = temporalWorkflow(definitions.leadInvalidationWorkflow);
export const assignLeadsWorkflow = temporalWorkflow(definitions.assignLeadsWorkflow);
export const analyzeSiteWorkflow = temporalWorkflow(definitions.analyzeSiteWorkflow);
export const idealClientProfileMiningWorkflow = temporalWorkflow(definitions.idealClientProfileMiningWorkflow);
export const keyAccountGenerationWorkflow = temporalWorkflow(definitions.keyAccountGenerationWorkflow);
export const buildSegmentsWorkflow = temporalWorkflow(definitions.buildSegmentsWorkflow);
export const buildSegmentsICPWorkflow = temporalWorkflow(definitions.buildSegmentsICPWorkflow);
export const buildCampaignsWorkflow = temporalWorkflow(definitions.buildCampaignsWorkflow);
export const buildContentWorkflow = temporalWorkflow(definitions.buildContentWorkflow);
export const customerSupportMessageWorkflow = temporalWorkflow(definitions.customerSupportMessageWorkflow);
export const syncEmailsWorkflow = temporalWorkflow(definitions.syncEmailsWorkflow);
export const dailyStandUpWorkflow = temporalWorkflow(definitions.dailyStandUpWorkflow);
export const humanInterventionWorkflow = temporalWorkflow(definitions.humanInterventionWorkflow);
export const startRobotWorkflow = temporalWorkflow(definitions.startRobotWorkflow);
export const stopRobotWorkflow = temporalWorkflow(definitions.stopRobotWorkflow);
export const promptRobotWorkflow = temporalWorkflow(definitions.promptRobotWorkflow);
export const webhookWorkflow = temporalWorkflow(definitions.webhookWorkflow);
export const agentMessageWorkflow = temporalWorkflow(definitions.agentMessageWorkflow);
export const agentCommandWorkflow = temporalWorkflow(definitions.agentCommandWorkflow);

/** The product's own workflows beside the catalog (never a site's runs). */
export { sequenceEnrollmentWorkflow } from './enrollment-workflow';
