/**
 * What a workflow may do outside itself. Definitions see only this interface (as types); both
 * engines call the implementation (`./activities-impl.ts`). Every activity takes the run's site id
 * first and touches nothing of another site. Results are plain JSON: they are checkpointed.
 */
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
  visitors_new: number;
  sessions: number;
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

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A robot workflow's step: start a robot for an activity, stop one, or prompt one (model-planned browser actions). */
export type RobotCommand =
  | { action: 'start'; activity: string }
  | { action: 'stop'; instance_id: string }
  | { action: 'prompt'; instance_id: string; prompt: string; system_prompt?: string; tools?: string[] };

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
  // The web (SSRF-guarded)
  fetchPage(siteId: string, url: string): Promise<PageSummary>;
  // Outside services: each fails the run with a *_NOT_CONFIGURED reason when absent.
  generateText(siteId: string, request: TextRequest): Promise<string>;
  searchPeopleCategories(siteId: string, query: string): Promise<{ id: string; name: string; category: string }[]>;
  sendEmail(siteId: string, message: EmailMessage): Promise<{ message_id: string }>;
  fetchMailbox(siteId: string, sinceIso: string | null): Promise<{ message_id: string; from: string; subject: string; text: string }[]>;
  robot(siteId: string, command: RobotCommand): Promise<Record<string, unknown>>;
}
