import { generateText } from 'ai';
import { agentModel, type AgentModel } from '@/lib/providers/llm';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { now } from '@/lib/core/clock';
import { assignLeadsTo, leadsForBatch, markLeadsLost, toLead, type LeadRow } from '@/lib/leads/repo';
import { peopleDataProvider } from '@/lib/providers/people-data';
import { findSegment, saveClusterSegments } from '@/lib/segments/repo';
import { getSettings } from '@/lib/settings/service';
import { getSite } from '@/lib/sites/repo';
import { runRobotCommand } from '@/lib/robots/service';
import { recentFigures } from '@/lib/sites/stats';
import type { Activities, LeadSnapshot } from './activities';
import { WorkflowFailedError } from './definition';
import { fetchPageSummary } from './fetch-page';
import { insertWebhookEvent } from './repo';

/**
 * The activities over our repos and providers. Each takes the run's site id first and passes it
 * to the repo, which scopes every query by it. A required service that is missing fails the run
 * (WorkflowFailedError, not retried) with a reason naming what to configure.
 */
function snapshot(row: LeadRow): LeadSnapshot {
  const { site_id: _site, campaign_id: _campaign, created_at: _created, updated_at: _updated, ...fields } = toLead(row);
  return fields;
}

export const modelNotConfigured = () =>
  new WorkflowFailedError(
  'MODEL_NOT_CONFIGURED',
    'no language model is configured for this deployment: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL',
  );

/** Provider errors: not configured → the run fails for good; anything else may pass, so it is retried. */
function fromProvider(error: unknown): never {
  if (error instanceof ApiError && error.code === 'PROVIDER_NOT_CONFIGURED') throw new WorkflowFailedError(error.code, error.message);
  throw error;
}

export function createActivities(): Activities {
  return {
    async getSiteProfile(siteId) {
      const site = await getSite(siteId);
      if (!site) throw new WorkflowFailedError('SITE_NOT_FOUND', `Site ${siteId} does not exist`);
      return { id: site.id, name: site.name, domain: site.domain ?? null, settings: (await getSettings(siteId)) as Record<string, unknown> };
    },
    siteFigures: (siteId, windowHours) => recentFigures(siteId, windowHours, new Date(now())),
    listLeads: async (siteId, filter) => (await leadsForBatch(siteId, filter)).map(snapshot),
    async getLead(siteId, leadId) {
      const [row] = await leadsForBatch(siteId, { ids: [leadId] });
      return row ? snapshot(row) : null;
    },
    markLeadsInvalid: (siteId, marks) =>
      markLeadsLost(
        siteId,
        marks.map((m) => ({ leadId: m.lead_id, note: `Marked invalid: ${m.reason}` })),
      ),
    assignLeads: (siteId, assignments) => assignLeadsTo(siteId, assignments.map((a) => ({ leadId: a.lead_id, assigneeId: a.assignee_id }))),
    async getSegment(siteId, segmentId) {
      const s = await findSegment(siteId, segmentId);
      return s ? { id: s.segment_id, name: s.name, description: s.description, audience: s.audience, size: s.size, attributes: s.attributes } : null;
    },
    async saveSegments(siteId, plans) {
      const saved = await saveClusterSegments(
        siteId,
        plans.map((p) => ({ key: p.key, name: p.name, description: p.description, attributes: p.attributes, leadIds: p.lead_ids })),
      );
      return saved.map((s) => ({ key: s.key, segment_id: s.segmentId, name: s.name, size: s.size, created: s.created }));
    },
    async recordWebhookEvent(siteId, event) {
      const id = await insertWebhookEvent(siteId, { workflowId: event.workflow_id, eventType: event.event_type, tableName: event.table, payload: event.payload });
      return { event_id: id };
    },
    fetchPage(_siteId, url) {
      const c = config();
      return fetchPageSummary(url, { timeoutMs: c.WORKFLOW_FETCH_TIMEOUT_MS, maxBytes: c.WORKFLOW_FETCH_MAX_BYTES });
    },
    async generateText(_siteId, request) {
      // The agents' model port; without a configured model the run fails, never made up.
      let llm: AgentModel;
      try {
        llm = agentModel();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'MODEL_NOT_CONFIGURED') throw modelNotConfigured();
        throw error;
      }
      const { text } = await generateText({
        model: llm.model,
        system: request.system,
        prompt: request.prompt,
        maxRetries: llm.maxRetries,
        abortSignal: AbortSignal.timeout(llm.timeoutMs),
      });
      return text;
    },
    async searchPeopleCategories(_siteId, query) {
      try {
        return await peopleDataProvider().searchCategoryIds(query);
      } catch (error) {
        fromProvider(error);
      }
    },
    async sendEmail() {
      throw new WorkflowFailedError('EMAIL_NOT_CONFIGURED', 'no email provider is configured for this deployment, so no message can be sent');
    },
    async fetchMailbox() {
      throw new WorkflowFailedError('EMAIL_NOT_CONFIGURED', 'no mailbox provider is configured for this deployment, so no messages can be pulled');
    },
    async robot(siteId, command) {
      // Browser actions are not repeated on a retry: every error of the operation ends the run.
      try {
        return await runRobotCommand(siteId, command);
      } catch (error) {
        if (error instanceof ApiError) throw new WorkflowFailedError(error.code, error.message);
        throw new WorkflowFailedError('ROBOT_FAILED', error instanceof Error ? error.message : 'the robot operation failed');
      }
    },
  };
}
