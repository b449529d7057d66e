import { generateText } from 'ai';
import { carryOutCommand } from '@/lib/agents/execute';
import { openWorkflowMessage } from '@/lib/agents/workflow-message';
import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { syncMailbox } from '@/lib/email/inbound';
import { MailboxError } from '@/lib/email/mailbox';
import { sendEmail } from '@/lib/email/service';
import { lookupContacts, searchPeople } from '@/lib/finder/calls';
import { findRoleQuery, listRoleQueries, recordRoleQueryProgress, saveMinedPerson, unseenPeople } from '@/lib/finder/service';
import type { Lead } from '@/lib/leads/schema';
import { assignLeadsTo, batchOfLeads, markLeadsLost, setLeadStatus } from '@/lib/leads/service';
import { agentModel, type AgentModel } from '@/lib/providers/llm';
import { peopleDataProvider } from '@/lib/providers/people-data';
import { runRobotCommand } from '@/lib/robots/service';
import { findSegment, saveClusterSegments } from '@/lib/segments/service';
import { failStep, reasonOf } from '@/lib/sequences/jobs';
import { nextDue, runStep } from '@/lib/sequences/send';
import { sequenceReactions } from '@/lib/sequences/service';
import { getSettings } from '@/lib/settings/service';
import { getSite, siteFigures } from '@/lib/sites/service';
import type { Activities, LeadSnapshot, MiningTarget, PaidAnswer } from '@/lib/workflows/activities';
import { recordWebhookEvent } from '@/lib/workflows/change-events';
import { WorkflowFailedError } from '@/lib/workflows/definition';
import { fetchPageSummary } from '@/lib/workflows/fetch-page';
import { recordRunEnd } from '@/lib/workflows/run-events';

/**
 * The activities over the domains' services and the providers: the worker's composition root
 * (`./index.ts`) binds them to the engines; domains reach the engine through its client port
 * alone. Each takes the run's site id first and passes it on, and every call below is scoped by it. A required service that is missing fails the run
 * (WorkflowFailedError, not retried) with a reason naming what to configure.
 */
function snapshot(lead: Lead): LeadSnapshot {
  const { site_id: _site, campaign_id: _campaign, created_at: _created, updated_at: _updated, ...fields } = lead;
  return fields;
}

const modelNotConfigured = () =>
  new WorkflowFailedError('MODEL_NOT_CONFIGURED', 'no language model is configured for this deployment: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL');

/** Provider errors: not configured → the run fails for good; anything else may pass, so it is retried. */
function fromProvider(error: unknown): never {
  if (error instanceof ApiError && error.code === 'PROVIDER_NOT_CONFIGURED') throw new WorkflowFailedError(error.code, error.message);
  throw error;
}

/** A paid finder call: out of credits is an answer (mining stops cleanly); other provider errors as above. */
async function paid<T extends object>(call: () => Promise<T>): Promise<PaidAnswer<T>> {
  try {
    return { outcome: 'ok', ...(await call()) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INSUFFICIENT_CREDITS') return { outcome: 'insufficient_credits', message: error.message };
    fromProvider(error);
  }
}

/** A role query (it has more fields) as mining sees it: only these are checkpointed. */
const toTarget = (q: MiningTarget): MiningTarget => ({
  id: q.id,
  name: q.name,
  query: q.query,
  total_targets: q.total_targets,
  leads_created: q.leads_created,
  next_page: q.next_page,
});

export function createActivities(): Activities {
  return {
    async getSiteProfile(siteId) {
      const site = await getSite(siteId);
      if (!site) throw new WorkflowFailedError('SITE_NOT_FOUND', `Site ${siteId} does not exist`);
      return { id: site.id, name: site.name, domain: site.domain ?? null, settings: (await getSettings(siteId)) as Record<string, unknown> };
    },
    siteFigures: (siteId, windowHours) => siteFigures(siteId, windowHours, new Date(now())),
    listLeads: async (siteId, filter) => (await batchOfLeads(siteId, filter)).map(snapshot),
    async getLead(siteId, leadId) {
      const [lead] = await batchOfLeads(siteId, { ids: [leadId] });
      return lead ? snapshot(lead) : null;
    },
    markLeadsInvalid: (siteId, marks) =>
      markLeadsLost(
        siteId,
        marks.map((m) => ({ leadId: m.lead_id, note: `Marked invalid: ${m.reason}` })),
      ),
    assignLeads: (siteId, assignments) =>
      assignLeadsTo(
        siteId,
        assignments.map((a) => ({ leadId: a.lead_id, assigneeId: a.assignee_id })),
      ),
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
      const id = await recordWebhookEvent(siteId, {
        workflowId: event.workflow_id,
        eventType: event.event_type,
        tableName: event.table,
        payload: event.payload,
      });
      return { event_id: id };
    },
    async recordRunEnd(siteId, end) {
      await recordRunEnd(
        {
          workflowId: end.workflow_id,
          runId: end.run_id,
          type: end.workflow_type,
          status: end.status,
          startTime: end.start_time,
          closeTime: new Date(now()).toISOString(),
          input: null,
          ...(end.result !== undefined ? { result: end.result } : {}),
          ...(end.failure ? { failure: { message: end.failure.message } } : {}),
        },
        siteId,
      );
    },
    fetchPage(_siteId, url) {
      const c = config();
      return fetchPageSummary(url, { timeoutMs: c.WORKFLOW_FETCH_TIMEOUT_MS, maxBytes: c.WORKFLOW_FETCH_MAX_BYTES });
    },
    runAgentCommand: (siteId, commandId) => carryOutCommand(siteId, commandId),
    async openAgentMessage(siteId, input) {
      try {
        return await openWorkflowMessage(siteId, input);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'MODEL_NOT_CONFIGURED') throw modelNotConfigured();
        // A conversation gone since the start, or of another agent: the run cannot go on.
        if (error instanceof ApiError && (error.code === 'INVALID_REQUEST' || error.code === 'NOT_FOUND'))
          throw new WorkflowFailedError(error.code, error.message);
        throw error;
      }
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
    async miningTargets(siteId, roleQueryId) {
      if (roleQueryId) {
        const q = await findRoleQuery(siteId, roleQueryId);
        if (!q) throw new WorkflowFailedError('ROLE_QUERY_NOT_FOUND', `Role query ${roleQueryId} does not exist on this site`);
        return [toTarget(q)];
      }
      return (await listRoleQueries(siteId, { unfinishedOnly: true })).map(toTarget);
    },
    searchPeoplePage: (siteId, request) =>
      paid(async () => {
        const found = await searchPeople(siteId, request.query, request.page, { workflowId: request.workflow_id });
        return {
          total: found.total,
          people: found.people.map((p) => ({
            person_id: p.person_id,
            full_name: p.full_name,
            role_title: p.role_title,
            company: p.company?.name ?? null,
            linkedin_url: p.linkedin_url,
            email: p.email,
          })),
        };
      }),
    findWorkEmail: (siteId, request) =>
      paid(async () => {
        const found = await lookupContacts(siteId, request.person_id, 'work_emails', { workflowId: request.workflow_id });
        return { email: found.contacts.find((c) => c.status !== 'invalid')?.value ?? null };
      }),
    unseenPeople: (siteId, personIds) => unseenPeople(siteId, personIds),
    saveMinedLead: (siteId, roleQueryId, person) =>
      saveMinedPerson(siteId, roleQueryId, {
        person_id: person.person_id,
        email: person.email,
        name: person.full_name,
        position: person.role_title,
        company: person.company,
        origin: 'finder',
        notes: [`Found by the people search "${person.query_name}" (provider person ${person.person_id})`, person.linkedin_url]
          .filter(Boolean)
          .join('\n'),
      }),
    recordMiningProgress: (siteId, roleQueryId, p) =>
      recordRoleQueryProgress(siteId, roleQueryId, {
        ...(p.status ? { status: p.status } : {}),
        ...(p.next_page !== undefined ? { nextPage: p.next_page } : {}),
        ...(p.pages_fetched ? { pagesFetched: p.pages_fetched } : {}),
        ...(p.workflow_id ? { workflowId: p.workflow_id } : {}),
      }),
    async sendEmail(siteId, message) {
      try {
        const sent = await sendEmail(
          siteId,
          null,
          { to: [message.to], subject: message.subject, text: message.text },
          {
            leadId: message.lead_id,
            workflowId: message.workflow_id,
            unsubscribeFooter: true,
          },
        );
        return { email_id: sent.id, message_id: sent.message_id ?? '', transport: sent.transport };
      } catch (error) {
        if (error instanceof ApiError && error.code === 'UNPROCESSABLE') {
          throw new WorkflowFailedError(
            'RECIPIENT_SUPPRESSED',
            `${message.to} is on the site's suppression list (unsubscribed or bounced); nothing was sent`,
          );
        }
        throw error;
      }
    },
    async sequenceNextStep(siteId, enrollmentId) {
      const next = await nextDue(siteId, enrollmentId);
      return next && { step: next.step, in_ms: next.inMs };
    },
    async sendSequenceStep(siteId, enrollmentId, step) {
      try {
        await runStep(siteId, enrollmentId, step);
      } catch (error) {
        if (!(error instanceof ApiError)) log.warn('sequence step not sent', { site_id: siteId, ...errorFields(error) });
        throw new Error(reasonOf(error));
      }
    },
    failSequenceStep: (siteId, enrollmentId, step, cause) => failStep(siteId, enrollmentId, step, cause),
    async markLeadContacted(siteId, leadId) {
      const [lead] = await batchOfLeads(siteId, { ids: [leadId] });
      if (!lead) throw new WorkflowFailedError('LEAD_NOT_FOUND', `Lead ${leadId} does not exist on this site`);
      if (lead.status !== 'new') return lead.status;
      return (await setLeadStatus(siteId, leadId, 'contacted')).status;
    },
    async syncMailbox(siteId, sinceIso) {
      try {
        return await syncMailbox(siteId, sinceIso ? new Date(sinceIso) : null, sequenceReactions);
      } catch (error) {
        if (error instanceof MailboxError) throw new WorkflowFailedError(error.code, error.message);
        fromProvider(error);
      }
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
