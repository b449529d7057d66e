/**
 * What a workflow may do outside itself. Definitions see only this interface (as types); both
 * engines call the implementation the worker's composition root binds (`lib/worker/activities.ts`). Every activity takes the run's site id
 * first and touches nothing of another site. Results are plain JSON: they are checkpointed.
 */
/** A robot workflow's step: start a robot for an activity, stop one, or prompt one (model-planned browser actions). */
export type RobotCommand =
  | { action: 'start'; activity: string }
  | { action: 'stop'; instance_id: string }
  | { action: 'prompt'; instance_id: string; prompt: string; system_prompt?: string; tools?: string[] };

export interface LeadSnapshot {
  id: string;
  name: string;
  email: string;
  status: 'new' | 'contacted' | 'qualified' | 'converted' | 'lost';
  phone: string | null;
  position: string | null;
  company: string | null;
  notes: string | null;
  origin: string | null;
  segment_id: string | null;
  assignee_id: string | null;
  lead_score: number | null;
}

export interface SegmentSnapshot {
  id: string;
  name: string;
  description: string | null;
  audience: string | null;
  size: number | null;
  attributes: Record<string, unknown>;
}

export interface SiteProfile {
  id: string;
  name: string;
  domain: string | null;
  /** Business settings (spec §2.11), as stored. */
  settings: Record<string, unknown>;
}

/** Counts of the site over a recent window (dailyStandUp). */
export interface SiteFigures {
  window_hours: number;
  leads_total: number;
  leads_new: number;
  leads_by_status: Record<string, number>;
  /** Distinct visitors of people's sessions started in the window (the analytics service's count, as on the Overview). */
  visitors: number;
  /** People's sessions started in the window. */
  sessions: number;
  /** Bot sessions started in the window and their distinct visitors: counted apart, left out of the figures above. */
  bot_visitors: number;
  bot_sessions: number;
  /** Events of people's sessions received in the window. */
  events: number;
  commands_by_status: Record<string, number>;
}

export interface PageSummary {
  url: string;
  final_url: string;
  status: number;
  content_type: string;
  bytes: number;
  truncated: boolean;
  title: string | null;
  description: string | null;
  headings: { level: number; text: string }[];
  links: number;
}

/** A group of leads sharing attribute values, written as one segment. */
export interface SegmentPlan {
  /** Stable key of the cluster (stored in the segment's attributes), so a rerun updates it. */
  key: string;
  name: string;
  description: string;
  attributes: Record<string, string>;
  lead_ids: string[];
}

export interface TextRequest {
  /** What the text is for (logged with the call). */
  purpose: string;
  system: string;
  prompt: string;
}

/** How a command ended (`running` when another process holds it). */
export interface AgentCommandOutcome {
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  error?: { code: string; message: string };
  /** The agent's answer once completed. */
  reply?: string | null;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** Links recorded with the message in the site's email log. */
  lead_id?: string;
  workflow_id?: string;
}

/** How a mailbox sync went (the email port's summary, as JSON). */
export interface MailboxSyncResult {
  fetched: number;
  stored: number;
  replies: number;
  from_leads: number;
  bounces: number;
  auto_replies: number;
  commands: { email_id: string; command_id: string; lead_id: string | null }[];
  not_handed: { email_id: string; code: string }[];
  last_uid: number;
}

/** A role query as mining sees it. */
export interface MiningTarget {
  id: string;
  name: string;
  query: Record<string, unknown>;
  total_targets: number;
  leads_created: number;
  next_page: number;
}

/** A person the provider found, as mining needs it. */
export interface FoundPerson {
  person_id: string;
  full_name: string;
  role_title: string | null;
  company: string | null;
  linkedin_url: string | null;
  email: string | null;
}

/** A paid finder call either answers or says the site's credits ran out (the run stops cleanly). */
export type PaidAnswer<T> = ({ outcome: 'ok' } & T) | { outcome: 'insufficient_credits'; message: string };

export interface Activities {
  // Site data
  getSiteProfile(siteId: string): Promise<SiteProfile>;
  siteFigures(siteId: string, windowHours: number): Promise<SiteFigures>;
  // Leads and segments
  listLeads(siteId: string, filter: { statuses?: LeadSnapshot['status'][]; unassignedOnly?: boolean; ids?: string[] }): Promise<LeadSnapshot[]>;
  getLead(siteId: string, leadId: string): Promise<LeadSnapshot | null>;
  /** Sets each lead to `lost` with the reason appended to its notes; answers how many changed. */
  markLeadsInvalid(siteId: string, marks: { lead_id: string; reason: string }[]): Promise<number>;
  assignLeads(siteId: string, assignments: { lead_id: string; assignee_id: string }[]): Promise<number>;
  getSegment(siteId: string, segmentId: string): Promise<SegmentSnapshot | null>;
  /** Creates or updates one segment per plan (matched by key) and moves its leads into it. */
  saveSegments(siteId: string, plans: SegmentPlan[]): Promise<{ key: string; segment_id: string; name: string; size: number; created: boolean }[]>;
  // Inbound events
  recordWebhookEvent(
    siteId: string,
    event: { workflow_id: string; event_type: string | null; table: string | null; payload: Record<string, unknown> },
  ): Promise<{ event_id: string }>;
  // Agents
  /**
   * Runs an agent command to its end (once: a finished command is not run again, one left running
   * by a process that died is recorded as failed/INTERRUPTED) and answers how it ended.
   */
  runAgentCommand(siteId: string, commandId: string): Promise<AgentCommandOutcome>;
  /**
   * Records a message to an agent as the agent routes do (a command in a conversation, new or
   * continued) without starting a run for it: the calling run carries it out with runAgentCommand.
   */
  openAgentMessage(
    siteId: string,
    input: { agent_id?: string; conversation_id?: string; message: string },
  ): Promise<{ command_id: string; conversation_id: string; agent: string }>;
  /**
   * The end of a run, as a webhook event (workflow.completed/failed/cancelled). The Temporal
   * engine's last step; the embedded engine records it in the transaction that closes the run.
   */
  recordRunEnd(siteId: string, end: RunEnd): Promise<void>;
  // Outreach sequences: the Temporal engine's workflow of one enrollment (lib/sequences/send.ts).
  /** The step the enrollment waits for and how long until it is due (0: now; null: until a change), or null once it ended. */
  sequenceNextStep(siteId: string, enrollmentId: string): Promise<{ step: number; in_ms: number | null } | null>;
  /**
   * Sends step `step` of the enrollment when it is due, behind its at-most-once claim (what the
   * embedded engine's step job runs); a failure's message is meant for the site's owner.
   */
  sendSequenceStep(siteId: string, enrollmentId: string, step: number): Promise<void>;
  /** Ends the enrollment failed: step `step` was refused at every attempt (the last reason), or no attempt answered. */
  failSequenceStep(siteId: string, enrollmentId: string, step: number, cause: { attempts: number; reason: string } | 'no answer'): Promise<void>;
  // The web (SSRF-guarded)
  fetchPage(siteId: string, url: string): Promise<PageSummary>;
  // Outside services: each fails the run with a *_NOT_CONFIGURED reason when absent.
  generateText(siteId: string, request: TextRequest): Promise<string>;
  searchPeopleCategories(siteId: string, query: string): Promise<{ id: string; name: string; category: string }[]>;
  /**
   * Sends through the email port (SMTP, or the site's outbox) from the site's sender identity;
   * an address on the site's suppression list fails the run (RECIPIENT_SUPPRESSED).
   */
  sendEmail(siteId: string, message: EmailMessage): Promise<{ email_id: string; message_id: string; transport: string }>;
  /** Moves a `new` lead to `contacted` (a lead further along keeps its status); answers the status it has. */
  markLeadContacted(siteId: string, leadId: string): Promise<LeadSnapshot['status']>;
  /** Syncs the site's IMAP mailbox (MAILBOX_NOT_CONFIGURED / MAILBOX_AUTH_FAILED / MAILBOX_UNREACHABLE fail the run). */
  syncMailbox(siteId: string, sinceIso: string | null): Promise<MailboxSyncResult>;
  robot(siteId: string, command: RobotCommand): Promise<Record<string, unknown>>;
  // Finder mining: role queries, paid provider calls (charged to the site's credits, attributed to the run), leads.
  /** The role query `roleQueryId` (fails the run when the site has none), or every unfinished one of the site. */
  miningTargets(siteId: string, roleQueryId: string | null): Promise<MiningTarget[]>;
  searchPeoplePage(
    siteId: string,
    request: { query: Record<string, unknown>; page: number; workflow_id: string },
  ): Promise<PaidAnswer<{ people: FoundPerson[]; total: number | null }>>;
  findWorkEmail(siteId: string, request: { person_id: string; workflow_id: string }): Promise<PaidAnswer<{ email: string | null }>>;
  /** Of these provider person ids, those the site never considered. */
  unseenPeople(siteId: string, personIds: string[]): Promise<string[]>;
  /** Creates the lead (segment and origin from the role query) unless the target is reached or the email is the site's already. */
  saveMinedLead(
    siteId: string,
    roleQueryId: string,
    person: FoundPerson & { query_name: string },
  ): Promise<{
    outcome: 'lead' | 'duplicate' | 'no_email' | 'target_reached' | 'seen';
    lead_id: string | null;
    leads_created: number;
    total_targets: number;
  }>;
  recordMiningProgress(
    siteId: string,
    roleQueryId: string,
    progress: {
      status?: 'mining' | 'completed' | 'exhausted' | 'out_of_credits' | 'pending';
      next_page?: number;
      pages_fetched?: number;
      workflow_id?: string;
    },
  ): Promise<void>;
}

export interface RunEnd {
  workflow_id: string;
  run_id: string;
  workflow_type: string;
  status: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  start_time: string;
  result?: unknown;
  failure?: { message: string };
}
