/**
 * Typed mirror of supabase/migrations. The SQL files are the source of truth; this file only
 * describes the tables to the query layer. `tests/integration/db/schema-mirror.test.ts` checks
 * that every column declared here exists in the migrated database.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SiteRole } from '@/lib/core/principal';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name'),
  // Null for an account made by single sign-on until it sets a password (password reset).
  passwordHash: text('password_hash'),
  createdAt: ts('created_at').notNull().defaultNow(),
  emailVerifiedAt: ts('email_verified_at'),
});

export const accountTokens = pgTable('account_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  purpose: text('purpose').$type<'verify_email' | 'reset_password'>().notNull(),
  tokenHash: text('token_hash').notNull(),
  email: text('email').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const userSessions = pgTable('user_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  userAgent: text('user_agent'),
  ip: text('ip'),
  lastUsedAt: ts('last_used_at'),
});

export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id').primaryKey(),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: ts('enabled_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const userRecoveryCodes = pgTable('user_recovery_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  codeHash: text('code_hash').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const accountEvents = pgTable('account_events', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: uuid('user_id').notNull(),
  siteId: uuid('site_id'),
  kind: text('kind').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const ssoIdentities = pgTable('sso_identities', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSignInAt: ts('last_sign_in_at').notNull().defaultNow(),
});

export const sites = pgTable('sites', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull(),
  name: text('name').notNull(),
  domain: text('domain'),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  plan: text('plan').$type<'basic' | 'pro' | 'enterprise'>().notNull().default('basic'),
  rateLimitPerMinute: integer('rate_limit_per_minute'),
  concurrencyLimit: integer('concurrency_limit'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const siteMembers = pgTable(
  'site_members',
  {
    siteId: uuid('site_id').notNull(),
    userId: uuid('user_id').notNull(),
    role: text('role').$type<SiteRole>().notNull(),
    invitedBy: uuid('invited_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.userId] })],
);

export const siteInvitations = pgTable('site_invitations', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  email: text('email').notNull(),
  role: text('role').$type<Exclude<SiteRole, 'owner'>>().notNull(),
  tokenHash: text('token_hash').notNull(),
  invitedBy: uuid('invited_by'),
  expiresAt: ts('expires_at').notNull(),
  acceptedAt: ts('accepted_at'),
  acceptedBy: uuid('accepted_by'),
  revokedAt: ts('revoked_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull(),
  displaySuffix: text('display_suffix').notNull(),
  scopes: text('scopes').array().$type<('read' | 'write')[]>().notNull(),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  lastStatus: integer('last_status'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const apiKeyUsage = pgTable('api_key_usage', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  keyId: uuid('key_id').notNull(),
  siteId: uuid('site_id').notNull(),
  method: text('method').notNull(),
  route: text('route').notNull(),
  status: integer('status').notNull(),
  /** The start of the minute the requests were served in. */
  createdAt: ts('created_at').notNull(),
  /** Requests of this key, method, route and status in that minute. */
  requests: integer('requests').notNull().default(1),
});

export const commands = pgTable('commands', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  task: text('task').notNull(),
  description: text('description').notNull(),
  parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
  status: text('status').notNull().default('pending'),
  agent: text('agent').notNull().default('cmo'),
  conversationId: uuid('conversation_id'),
  keyId: uuid('key_id'),
  keyScopes: text('key_scopes').array().notNull().default([]),
  reply: text('reply'),
  toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull().default([]),
  usage: jsonb('usage').$type<Record<string, number | null>>(),
  error: jsonb('error').$type<{ code: string; message: string }>(),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const conversations = pgTable('conversations', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  agent: text('agent').notNull(),
  title: text('title').notNull(),
  leadId: uuid('lead_id'),
  visitorId: uuid('visitor_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const conversationMessages = pgTable('conversation_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  siteId: uuid('site_id').notNull(),
  conversationId: uuid('conversation_id').notNull(),
  commandId: uuid('command_id'),
  role: text('role').$type<'user' | 'assistant'>().notNull(),
  content: text('content').notNull(),
  toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull().default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const segments = pgTable('segments', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  description: text('description'),
  audience: text('audience'),
  size: integer('size'),
  estimatedValue: numeric('estimated_value', { mode: 'number' }),
  language: text('language'),
  isActive: boolean('is_active').notNull().default(true),
  attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const leads = pgTable('leads', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  status: text('status').$type<'new' | 'contacted' | 'qualified' | 'converted' | 'lost'>().notNull().default('new'),
  phone: text('phone'),
  position: text('position'),
  company: text('company'),
  notes: text('notes'),
  origin: text('origin'),
  segmentId: uuid('segment_id'),
  campaignId: uuid('campaign_id'),
  assigneeId: uuid('assignee_id'),
  leadScore: integer('lead_score'),
  // Values of the site's custom properties by key (20261206140000_lead_custom_properties_and_imports.sql).
  customProperties: jsonb('custom_properties').$type<Record<string, string | number>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  // Name, email and company, lower-cased and joined by chr(31): what a search matches
  // (20261125121700_lead_search_text.sql, trigram index leads_search_text_trgm_idx).
  searchText: text('search_text').generatedAlwaysAs(sql`lower(name || chr(31) || email || chr(31) || coalesce(company, ''))`),
});

// A site's own lead fields and CSV imports (20261206140000_lead_custom_properties_and_imports.sql).
export const leadProperties = pgTable('lead_properties', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  key: text('key').notNull(),
  label: text('label').notNull(),
  type: text('type').$type<'text' | 'number' | 'date' | 'choice'>().notNull(),
  options: jsonb('options').$type<string[]>().notNull().default([]),
  position: integer('position').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const leadImports = pgTable('lead_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  fileName: text('file_name'),
  status: text('status').$type<'queued' | 'running' | 'completed' | 'failed'>().notNull().default('queued'),
  totalRows: integer('total_rows').notNull().default(0),
  processedRows: integer('processed_rows').notNull().default(0),
  created: integer('created').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  errors: jsonb('errors').$type<{ row: number; message: string }[]>().notNull().default([]),
  pendingRows: jsonb('pending_rows').$type<unknown[]>(),
  failure: text('failure'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  completedAt: ts('completed_at'),
});

export const requirements = pgTable('requirements', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  title: text('title').notNull(),
  type: text('type'),
  priority: text('priority').$type<'high' | 'medium' | 'low'>().notNull().default('medium'),
  status: text('status').$type<'backlog' | 'validated' | 'in-progress' | 'on-review' | 'done' | 'canceled'>().notNull().default('backlog'),
  completionStatus: text('completion_status').$type<'pending' | 'completed' | 'rejected'>().notNull().default('pending'),
  instructions: text('instructions'),
  budget: integer('budget'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const siteOrigins = pgTable('site_origins', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  origin: text('origin').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// Visitor tracking (20261121020000_visitors.sql). Session times are epoch milliseconds.
const ms = (name: string) => bigint(name, { mode: 'number' });
type Json = Record<string, unknown>;

export const visitors = pgTable('visitors', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  fingerprint: text('fingerprint'),
  leadId: uuid('lead_id'),
  isBot: boolean('is_bot').notNull().default(false),
  firstSeenAt: ms('first_seen_at').notNull(),
  lastSeenAt: ms('last_seen_at').notNull(),
});

export const visitorSessions = pgTable('visitor_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  visitorId: uuid('visitor_id').notNull(),
  fingerprint: text('fingerprint'),
  leadId: uuid('lead_id'),
  previousSessionId: uuid('previous_session_id'),
  status: text('status').$type<'active' | 'closed' | 'expired'>().notNull().default('active'),
  url: text('url'),
  currentUrl: text('current_url'),
  referrer: text('referrer'),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  utmTerm: text('utm_term'),
  utmContent: text('utm_content'),
  createdAt: ms('created_at').notNull(),
  startedAt: ms('started_at').notNull(),
  lastActivityAt: ms('last_activity_at').notNull(),
  updatedAt: ms('updated_at').notNull(),
  expiresAt: ms('expires_at').notNull(),
  endedAt: ms('ended_at'),
  duration: ms('duration'),
  pageViews: integer('page_views').notNull().default(0),
  activeTime: ms('active_time'),
  idleTime: ms('idle_time'),
  exitUrl: text('exit_url'),
  exitType: text('exit_type').$type<'bounce' | 'exit' | 'timeout'>(),
  device: jsonb('device').$type<Json>(),
  browser: jsonb('browser').$type<Json>(),
  location: jsonb('location').$type<Json>(),
  performance: jsonb('performance').$type<Json>(),
  consent: jsonb('consent').$type<Json>(),
  customData: jsonb('custom_data').$type<Json>(),
  leadData: jsonb('lead_data').$type<Json>(),
  isBot: boolean('is_bot').notNull().default(false),
  eventCount: integer('event_count').notNull().default(0),
  conversions: integer('conversions').notNull().default(0),
  previousSessionAt: ms('previous_session_at'),
  entryPath: text('entry_path').generatedAlwaysAs(sql`analytics_url_path(url)`),
  referrerHost: text('referrer_host').generatedAlwaysAs(
    sql`nullif(nullif(coalesce(analytics_url_host(referrer), referrer), ''), analytics_url_host(url))`,
  ),
});

export const sessionEvents = pgTable('session_events', {
  id: uuid('id').primaryKey(),
  siteId: uuid('site_id').notNull(),
  sessionId: uuid('session_id').notNull(),
  visitorId: uuid('visitor_id').notNull(),
  eventType: text('event_type').notNull(),
  eventName: text('event_name'),
  url: text('url'),
  timestamp: ms('timestamp').notNull(),
  properties: jsonb('properties').$type<Json>(),
  receivedAt: ms('received_at').notNull(),
  path: text('path').generatedAlwaysAs(sql`case when event_type = 'pageview' then analytics_url_path(url) end`),
});

// Rollups of finished days for the analytics reads (20261124091000_analytics.sql).
export const analyticsDays = pgTable(
  'analytics_days',
  {
    siteId: uuid('site_id').notNull(),
    tz: text('tz').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    computedAt: ms('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.tz, t.day] })],
);

export const analyticsFacts = pgTable(
  'analytics_facts',
  {
    siteId: uuid('site_id').notNull(),
    tz: text('tz').notNull(),
    dim: text('dim').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull().default(0),
    sessions: integer('sessions').notNull().default(0),
    bounces: integer('bounces').notNull().default(0),
    durationMs: ms('duration_ms').notNull().default(0),
    pageViews: integer('page_views').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    engagedMs: ms('engaged_ms').notNull().default(0),
    scrollDepth: ms('scroll_depth').notNull().default(0),
    engagements: integer('engagements').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.tz, t.dim, t.day, t.value] })],
);

// The kept part of the open days (20261207120000_analytics_open_days.sql).
export const analyticsOpenDays = pgTable(
  'analytics_open_days',
  {
    siteId: uuid('site_id').notNull(),
    tz: text('tz').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    upto: ms('upto').notNull(),
    computedAt: ms('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.tz, t.day] })],
);

export const analyticsOpenFacts = pgTable(
  'analytics_open_facts',
  {
    siteId: uuid('site_id').notNull(),
    tz: text('tz').notNull(),
    dim: text('dim').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    value: text('value').notNull(),
    visitors: integer('visitors').notNull().default(0),
    sessions: integer('sessions').notNull().default(0),
    bounces: integer('bounces').notNull().default(0),
    durationMs: ms('duration_ms').notNull().default(0),
    pageViews: integer('page_views').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    engagedMs: ms('engaged_ms').notNull().default(0),
    scrollDepth: ms('scroll_depth').notNull().default(0),
    engagements: integer('engagements').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.tz, t.dim, t.day, t.value] })],
);

// Session facts of the filtered analytics reads (20261208070000_analytics_session_facts.sql).
export const analyticsSessionsKept = pgTable('analytics_sessions_kept', {
  siteId: uuid('site_id').primaryKey(),
  upto: ms('upto').notNull(),
  computedAt: ms('computed_at').notNull(),
  /** The spans (epoch ms) whose analytics_dimension_slots no longer sum the facts kept (an int8multirange). */
  dirty: customType<{ data: string }>({ dataType: () => 'int8multirange' })('dirty'),
});

export const analyticsSessions = pgTable('analytics_sessions', {
  sessionId: uuid('session_id').primaryKey(),
  siteId: uuid('site_id').notNull(),
  visitorId: uuid('visitor_id').notNull(),
  createdAt: ms('created_at').notNull(),
  entryPage: text('entry_page'),
  exitPage: text('exit_page'),
  referrer: text('referrer'),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  utmTerm: text('utm_term'),
  utmContent: text('utm_content'),
  country: text('country'),
  device: text('device'),
  browser: text('browser'),
  os: text('os'),
  pageViews: integer('page_views').notNull(),
  conversions: integer('conversions').notNull(),
  durationMs: ms('duration_ms').notNull(),
  eventPageViews: integer('event_page_views').notNull(),
  eventConversions: integer('event_conversions').notNull(),
  firstSlot: ms('first_slot'),
  lastSlot: ms('last_slot'),
  computedAt: ms('computed_at').notNull(),
  /** The visitor's sample (0–63) a sampled read keeps or leaves (20261210090000_analytics_session_samples.sql). */
  sample: smallint('sample').generatedAlwaysAs(sql`analytics_sample(visitor_id)`),
});

export const analyticsSessionPages = pgTable('analytics_session_pages', {
  sessionId: uuid('session_id').notNull(),
  siteId: uuid('site_id').notNull(),
  startedAt: ms('started_at').notNull(),
  slot: ms('slot').notNull(),
  path: text('path'),
  sample: smallint('sample').notNull(),
  pageViews: integer('page_views').notNull(),
  conversions: integer('conversions').notNull(),
  engagedMs: ms('engaged_ms').notNull(),
  scrollDepth: ms('scroll_depth').notNull(),
  engagements: integer('engagements').notNull(),
});

// Per-slot sums of the session facts by dimension value (20261209090000_analytics_dimension_slots.sql).
export const analyticsDimensionSlots = pgTable('analytics_dimension_slots', {
  siteId: uuid('site_id').notNull(),
  dim: text('dim').notNull(),
  value: text('value'),
  slot: ms('slot').notNull(),
  sessions: integer('sessions').notNull(),
  bounces: integer('bounces').notNull(),
  durationMs: ms('duration_ms').notNull(),
  pageViews: integer('page_views').notNull(),
  conversions: integer('conversions').notNull(),
  eventPageViews: integer('event_page_views').notNull(),
  eventConversions: integer('event_conversions').notNull(),
});

/** One random salt per day for cookieless visitors' daily ids; a day's salt is deleted once the day is over. */
export const visitorSalts = pgTable('visitor_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

export const visitorSegments = pgTable(
  'visitor_segments',
  {
    siteId: uuid('site_id').notNull(),
    visitorId: uuid('visitor_id').notNull(),
    segmentId: uuid('segment_id').notNull(),
    addedAt: ms('added_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.visitorId, t.segmentId] })],
);

export const visitorUploads = pgTable('visitor_uploads', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  visitorId: uuid('visitor_id'),
  type: text('type'),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  storage: text('storage').$type<'local' | 'supabase'>().notNull(),
  storageKey: text('storage_key').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// Workflow runs of the embedded engine (20261123100000_workflows.sql).
export const workflowRuns = pgTable('workflow_runs', {
  runId: uuid('run_id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  workflowId: text('workflow_id').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull().default('RUNNING'),
  input: jsonb('input').$type<unknown>().notNull(),
  result: jsonb('result').$type<unknown>(),
  failure: jsonb('failure').$type<unknown>(),
  idempotencyKey: text('idempotency_key'),
  startTime: ts('start_time').notNull().defaultNow(),
  closeTime: ts('close_time'),
  timeoutAt: ts('timeout_at'),
  heldBy: uuid('held_by'),
});

export const workflowSteps = pgTable(
  'workflow_steps',
  {
    runId: uuid('run_id').notNull(),
    step: integer('step').notNull(),
    siteId: uuid('site_id').notNull(),
    kind: text('kind').$type<'activity' | 'sleep' | 'signal'>().notNull(),
    name: text('name').notNull(),
    wakeAt: ts('wake_at'),
    completed: boolean('completed').notNull().default(false),
    result: jsonb('result').$type<unknown>(),
    completedAt: ts('completed_at'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.step] })],
);

export const workflowSignals = pgTable('workflow_signals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  runId: uuid('run_id').notNull(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  payload: jsonb('payload').$type<unknown>(),
  receivedAt: ts('received_at').notNull().defaultNow(),
  consumedStep: integer('consumed_step'),
});

export const webhookEvents = pgTable('webhook_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  workflowId: text('workflow_id'),
  eventType: text('event_type'),
  tableName: text('table_name'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});
// Idempotency keys of Temporal starts (20261123110000_temporal_start_keys.sql).
export const temporalStartKeys = pgTable(
  'temporal_start_keys',
  {
    siteId: uuid('site_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    workflowId: text('workflow_id').notNull(),
    runId: text('run_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.idempotencyKey] })],
);

// Platform API and transactional email (20261123124000_platform.sql).
export const platformApps = pgTable('platform_apps', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  shortId: text('short_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const platformKeys = pgTable('platform_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  appId: uuid('app_id').notNull(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  keyHash: text('key_hash').notNull(),
  displaySuffix: text('display_suffix').notNull(),
  capabilities: text('capabilities').array().notNull(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const platformQuotaUsage = pgTable(
  'platform_quota_usage',
  {
    siteId: uuid('site_id').notNull(),
    appId: uuid('app_id').notNull(),
    capability: text('capability').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.appId, t.capability, t.day] })],
);

export const platformAuditLog = pgTable('platform_audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: uuid('site_id').notNull(),
  appId: uuid('app_id').notNull(),
  keyId: uuid('key_id').notNull(),
  requestId: text('request_id').notNull(),
  method: text('method').notNull(),
  route: text('route').notNull(),
  capability: text('capability'),
  status: integer('status').notNull(),
  errorCode: text('error_code'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const emailRecipients = pgTable('email_recipients', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  email: text('email').notNull(),
  codeHash: text('code_hash'),
  codeExpiresAt: ts('code_expires_at'),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  codesSent: integer('codes_sent').notNull().default(0),
  lastSentAt: ts('last_sent_at'),
  verifiedAt: ts('verified_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const emailMessages = pgTable('email_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  appId: uuid('app_id'),
  transport: text('transport').$type<'outbox' | 'smtp' | 'imap'>().notNull(),
  status: text('status').$type<'stored' | 'sent' | 'failed' | 'received'>().notNull(),
  fromAddress: text('from_address').notNull(),
  toAddresses: text('to_addresses').array().notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body'),
  htmlBody: text('html_body'),
  providerMessageId: text('provider_message_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  // 20261124100000_email_in_out.sql
  direction: text('direction').$type<'outbound' | 'inbound'>().notNull().default('outbound'),
  messageId: text('message_id'),
  inReplyTo: text('in_reply_to'),
  leadId: uuid('lead_id'),
  workflowId: text('workflow_id'),
  conversationId: uuid('conversation_id'),
  commandId: uuid('command_id'),
  kind: text('kind').$type<'reply' | 'message' | 'bounce' | 'auto_reply'>(),
  mailboxKey: text('mailbox_key'),
});

export const emailSenders = pgTable('email_senders', {
  siteId: uuid('site_id').primaryKey(),
  fromAddress: text('from_address'),
  fromName: text('from_name'),
  replyTo: text('reply_to'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const emailSuppressions = pgTable(
  'email_suppressions',
  {
    siteId: uuid('site_id').notNull(),
    email: text('email').notNull(),
    reason: text('reason').$type<'unsubscribed' | 'bounced' | 'manual' | 'erased'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.email] })],
);

export const emailMailboxes = pgTable('email_mailboxes', {
  siteId: uuid('site_id').primaryKey(),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  tls: boolean('tls').notNull(),
  username: text('username').notNull(),
  folder: text('folder').notNull().default('INBOX'),
  secretId: uuid('secret_id').notNull(),
  uidValidity: bigint('uid_validity', { mode: 'number' }),
  lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
  lastSyncAt: ts('last_sync_at'),
  lastErrorCode: text('last_error_code'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// Finder: credits, role queries and mined people (20261123123000_finder.sql).
export const finderCreditAccounts = pgTable('finder_credit_accounts', {
  siteId: uuid('site_id').primaryKey(),
  balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  monthlyCap: bigint('monthly_cap', { mode: 'number' }),
  periodMonth: text('period_month').notNull().default(''),
  periodSpent: bigint('period_spent', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const finderCreditLedger = pgTable('finder_credit_ledger', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  kind: text('kind').$type<'grant' | 'charge' | 'refund'>().notNull(),
  callType: text('call_type'),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
  refundOf: uuid('refund_of'),
  workflowId: text('workflow_id'),
  note: text('note'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export type RoleQueryStatus = 'pending' | 'mining' | 'completed' | 'exhausted' | 'out_of_credits';

export const finderRoleQueries = pgTable('finder_role_queries', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  query: jsonb('query').$type<Record<string, unknown>>().notNull(),
  queryHash: text('query_hash').notNull(),
  totalTargets: integer('total_targets').notNull(),
  leadsCreated: integer('leads_created').notNull().default(0),
  pagesFetched: integer('pages_fetched').notNull().default(0),
  nextPage: integer('next_page').notNull().default(1),
  status: text('status').$type<RoleQueryStatus>().notNull().default('pending'),
  lastWorkflowId: text('last_workflow_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const finderRoleQuerySegments = pgTable(
  'finder_role_query_segments',
  {
    siteId: uuid('site_id').notNull(),
    roleQueryId: uuid('role_query_id').notNull(),
    segmentId: uuid('segment_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roleQueryId, t.segmentId] })],
);

export const finderMinedPeople = pgTable(
  'finder_mined_people',
  {
    siteId: uuid('site_id').notNull(),
    personId: text('person_id').notNull(),
    roleQueryId: uuid('role_query_id'),
    leadId: uuid('lead_id'),
    outcome: text('outcome').$type<'lead' | 'duplicate' | 'no_email'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.personId] })],
);

export const secureTokens = pgTable('secure_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  type: text('type').notNull(),
  identifier: text('identifier').notNull(),
  iv: text('iv').notNull(),
  ciphertext: text('ciphertext').notNull(),
  tag: text('tag').notNull(),
  wrappedKey: text('wrapped_key').notNull(),
  keyId: text('key_id').notNull(),
  keyVersion: integer('key_version').notNull(),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  lastUsedAt: ts('last_used_at'),
});

export const secureTokenAudit = pgTable('secure_token_audit', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  tokenId: uuid('token_id'),
  identifier: text('identifier'),
  action: text('action').$type<'create' | 'delete' | 'decrypt'>().notNull(),
  outcome: text('outcome').$type<'ok' | 'not_found' | 'rate_limited' | 'integrity_failure' | 'key_unavailable'>().notNull(),
  apiKeyId: uuid('api_key_id'),
  userId: uuid('user_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const appSchemas = pgTable('app_schemas', {
  name: text('name').primaryKey(),
  siteId: uuid('site_id').notNull(),
  roleName: text('role_name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const appSchemaMigrations = pgTable('app_schema_migrations', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  appSchema: text('app_schema').notNull(),
  name: text('name').notNull(),
  checksum: text('checksum').notNull(),
  statements: integer('statements').notNull(),
  appliedAt: ts('applied_at').notNull().defaultNow(),
});

// Events and webhooks (20261123121000_webhooks.sql).
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  url: text('url').notNull(),
  description: text('description'),
  events: text('events').array().notNull(),
  active: boolean('active').notNull().default(true),
  secretEncrypted: text('secret_encrypted').notNull(),
  previousSecretEncrypted: text('previous_secret_encrypted'),
  previousSecretExpiresAt: ts('previous_secret_expires_at'),
  status: text('status').$type<'healthy' | 'failing'>().notNull().default('healthy'),
  failingSince: ts('failing_since'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export const outboundEvents = pgTable('outbound_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  type: text('type').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  dedupeKey: text('dedupe_key'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  eventId: uuid('event_id').notNull(),
  endpointId: uuid('endpoint_id').notNull(),
  status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at'),
  lastStatusCode: integer('last_status_code'),
  lastError: text('last_error'),
  deliveredAt: ts('delivered_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export const webhookAttempts = pgTable('webhook_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  deliveryId: uuid('delivery_id').notNull(),
  attempt: integer('attempt').notNull(),
  startedAt: ts('started_at').notNull(),
  durationMs: integer('duration_ms').notNull(),
  statusCode: integer('status_code'),
  error: text('error'),
  responseBody: text('response_body'),
});
export const eventSubscriptions = pgTable('event_subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  tableName: text('table_name').notNull(),
  eventTypes: text('event_types').array().notNull(),
  workflow: text('workflow').notNull(),
  input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
  recordFields: jsonb('record_fields').$type<Record<string, string>>().notNull().default({}),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// Remote instances, their logs and plans (20261123122000_instances.sql).
type InstanceStatus = 'uninstantiated' | 'pending' | 'starting' | 'running' | 'paused' | 'stopping' | 'stopped' | 'error';

export const remoteInstances = pgTable('remote_instances', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  instanceType: text('instance_type').$type<'browser' | 'ubuntu' | 'windows'>().notNull().default('browser'),
  status: text('status').$type<InstanceStatus>().notNull().default('uninstantiated'),
  agentId: uuid('agent_id'),
  configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
  environmentVariablesSealed: text('environment_variables_sealed'),
  activity: text('activity'),
  currentUrl: text('current_url'),
  stateKey: text('state_key'),
  screenshotKey: text('screenshot_key'),
  timeoutHours: numeric('timeout_hours', { precision: 6, scale: 2, mode: 'number' }).notNull().default(1),
  startedAt: ts('started_at'),
  expiresAt: ts('expires_at'),
  /** The process holding the instance's browser: alive while it holds its lock (lib/robots/holder.ts). */
  holderId: uuid('holder_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const credentialCacheLeases = pgTable('credential_cache_leases', {
  instanceId: uuid('instance_id').primaryKey(),
  leaseUntil: ts('lease_until').notNull(),
  seenBarrier: bigint('seen_barrier', { mode: 'number' }).notNull().default(0),
});

export const instanceLogs = pgTable('instance_logs', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  instanceId: uuid('instance_id').notNull(),
  logType: text('log_type').notNull(),
  level: text('level').notNull().default('info'),
  message: text('message').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  screenshotKey: text('screenshot_key'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const instancePlans = pgTable('instance_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  instanceId: uuid('instance_id').notNull(),
  title: text('title').notNull(),
  description: text('description'),
  planType: text('plan_type').notNull(),
  status: text('status').notNull().default('pending'),
  priority: integer('priority').notNull().default(0),
  instructions: text('instructions'),
  steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// Outreach sequences (20261206030000_sequences.sql). Steps are validated by lib/sequences/schema.ts.
export const sequences = pgTable('sequences', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  name: text('name').notNull(),
  status: text('status').$type<'active' | 'paused'>().notNull().default('active'),
  steps: jsonb('steps').$type<unknown[]>().notNull(),
  sendWindow: jsonb('send_window').$type<{ days: number[]; start_hour: number; end_hour: number }>(),
  dailyCap: integer('daily_cap'),
  domainPerMinute: integer('domain_per_minute'),
  stopOnStatus: text('stop_on_status').array().$type<('converted' | 'lost')[]>().notNull().default([]),
  // 20261206100000_sequence_tracking.sql
  tracking: boolean('tracking').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const sequenceEnrollments = pgTable('sequence_enrollments', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  sequenceId: uuid('sequence_id').notNull(),
  leadId: uuid('lead_id').notNull(),
  email: text('email').notNull(),
  status: text('status').$type<'active' | 'completed' | 'stopped' | 'failed'>().notNull().default('active'),
  /** Why a `failed` enrollment failed (its step could not be sent after every retry). */
  failure: text('failure'),
  /** The email agent’s draft of an agent-drafted step (20261206100001_sequence_drafts.sql, lib/sequences/draft.ts). */
  draft: jsonb('draft').$type<{ step: number; subject: string; body: string; approved: boolean; created_at: string }>(),
  stopReason: text('stop_reason').$type<'replied' | 'bounced' | 'unsubscribed' | 'removed' | 'converted' | 'lost'>(),
  nextStep: integer('next_step').notNull().default(0),
  nextSendAt: ts('next_send_at'),
  stoppedAt: ts('stopped_at'),
  completedAt: ts('completed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const sequenceMessages = pgTable('sequence_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  sequenceId: uuid('sequence_id').notNull(),
  enrollmentId: uuid('enrollment_id').notNull(),
  step: integer('step').notNull(),
  variant: integer('variant').notNull().default(0),
  emailMessageId: uuid('email_message_id'),
  status: text('status').$type<'sending' | 'sent' | 'failed' | 'skipped'>().notNull().default('sending'),
  sentAt: ts('sent_at'),
  openedAt: ts('opened_at'),
  clickedAt: ts('clicked_at'),
  repliedAt: ts('replied_at'),
  bouncedAt: ts('bounced_at'),
  unsubscribedAt: ts('unsubscribed_at'),
  opens: integer('opens').notNull().default(0),
  clicks: integer('clicks').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// 20261206150000_person.sql
export const leadNotes = pgTable('lead_notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  leadId: uuid('lead_id').notNull(),
  authorUserId: uuid('author_user_id'),
  authorKeyId: uuid('author_key_id'),
  body: text('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const leadChanges = pgTable('lead_changes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: uuid('site_id').notNull(),
  leadId: uuid('lead_id').notNull(),
  field: text('field').notNull(),
  oldValue: jsonb('old_value'),
  newValue: jsonb('new_value'),
  changedAt: ts('changed_at').notNull().defaultNow(),
});
