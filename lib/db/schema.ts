/**
 * Typed mirror of supabase/migrations. The SQL files are the source of truth; this file only
 * describes the tables to the query layer. `tests/integration/db/schema-mirror.test.ts` checks
 * that every column declared here exists in the migrated database.
 */
import { bigint, boolean, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name'),
  passwordHash: text('password_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
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
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const commands = pgTable('commands', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  task: text('task').notNull(),
  description: text('description').notNull(),
  parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull().default({}),
  status: text('status').notNull().default('processing'),
  result: jsonb('result'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
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
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
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

export const leadVisitors = pgTable('lead_visitors', {
  siteId: uuid('site_id').notNull(),
  visitorId: uuid('visitor_id').notNull(),
  leadId: uuid('lead_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const siteOrigins = pgTable('site_origins', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull(),
  origin: text('origin').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
