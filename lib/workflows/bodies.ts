import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Request bodies of `POST /api/workflow/{name}`, one strict schema per catalog name. The five of
 * spec §4.7 are exactly as specified; the others are this product's design (docs/PRODUCT.md "Workflows").
 * A body is also the run's `input`.
 */
const site = { site_id: siteIdSchema };
const str = (description: string) => z.string().describe(description);
const LEAD_STATUS = z.enum(['new', 'contacted', 'qualified', 'converted', 'lost']);

export const leadGenerationBody = z.strictObject({ ...site });
export const leadFollowUpBody = z.strictObject({ ...site, lead_id: uuidSchema.describe('The lead to follow up on') });
export const idealClientProfileMiningBody = z.strictObject({
  ...site,
  role_query_id: uuidSchema
    .optional()
    .describe('A role query of the site to mine (POST /api/finder/person_role_search/createQuery); default every unfinished one'),
});
export type IdealClientProfileMiningInput = z.infer<typeof idealClientProfileMiningBody>;
export const enrichLeadBody = z.strictObject({
  linkedin_profile: str('LinkedIn profile URL of the person'),
  person_id: str('Provider id of the person'),
  ...site,
  userId: str('User on whose behalf the enrichment runs'),
  company_name: str('Company of the person'),
});
export const customerSupportBody = z.strictObject({
  conversationId: str('Conversation the message belongs to'),
  userId: str('User handling the conversation'),
  message: str('The customer message to answer'),
  agentId: str('Support agent id'),
  ...site,
  lead_id: str('Lead of the customer'),
  visitor_id: str('Visitor id of the customer'),
  name: str('Customer name'),
  email: str('Customer email'),
  phone: str('Customer phone'),
  lead_notification: str('How the team is notified of the lead'),
  origin: str('Channel the message came from'),
  origin_message_id: str('Id of the message in its channel'),
  website_chat_origin: z.boolean().describe('True when the message came from the website chat'),
});
export const webhookBody = z.strictObject({
  site_id: siteIdSchema.optional(),
  type: z.string().max(64).optional().describe('Change type, e.g. INSERT, UPDATE, DELETE'),
  table: z.string().max(128).optional().describe('Table the change happened in'),
  schema: z.string().max(128).optional().describe('Schema of the table'),
  record: z.record(z.string(), z.unknown()).optional().describe('The row after the change'),
  old_record: z.record(z.string(), z.unknown()).nullable().optional().describe('The row before the change'),
});

export const leadResearchBody = z.strictObject({
  ...site,
  lead_ids: z.array(uuidSchema).min(1).max(100).optional().describe('Leads to research (default: the 20 oldest `new` leads)'),
});
export const leadInvalidationBody = z.strictObject({
  ...site,
  dry_run: z.boolean().default(false).describe('Report the invalid leads without changing them'),
});
export const assignLeadsBody = z.strictObject({
  ...site,
  assignee_ids: z
    .array(uuidSchema)
    .min(1)
    .max(50)
    .describe('Members of the site to share the leads between (round robin, least loaded first); 400 for anyone else'),
  statuses: z.array(LEAD_STATUS).min(1).default(['new']).describe('Lead statuses to assign (default new)'),
});
export const analyzeSiteBody = z.strictObject({
  ...site,
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('Page to fetch and analyze (http or https)'),
});
export const keyAccountGenerationBody = z.strictObject({
  ...site,
  limit: z.number().int().min(1).max(100).default(10).describe('How many key accounts to list (default 10)'),
});
export const buildSegmentsBody = z.strictObject({
  ...site,
  attributes: z
    .array(z.enum(['company', 'origin', 'position', 'email_domain', 'status']))
    .min(1)
    .max(3)
    .default(['origin'])
    .describe('Lead attributes whose shared values form a segment (default origin)'),
  min_size: z.number().int().min(1).max(10_000).default(2).describe('Smallest group that becomes a segment (default 2)'),
});
export const buildSegmentsICPBody = z.strictObject({ ...site });
export const buildCampaignsBody = z.strictObject({ ...site, segment_id: uuidSchema.describe('Segment to build campaigns for') });
export const buildContentBody = z.strictObject({
  ...site,
  topic: z.string().min(1).max(500).describe('What the content is about'),
  segment_id: uuidSchema.optional().describe('Audience segment'),
});
export const syncEmailsBody = z.strictObject({
  ...site,
  since: z.iso.datetime({ offset: true }).optional().describe('Only messages received after this time'),
});
export const dailyStandUpBody = z.strictObject({
  ...site,
  window_hours: z.number().int().min(1).max(168).default(24).describe('Hours the summary covers (default 24)'),
});
export const humanInterventionBody = z.strictObject({
  ...site,
  question: z.string().min(1).max(2000).describe('What the human is asked'),
  context: z.record(z.string(), z.unknown()).optional().describe('Anything the human needs to decide'),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(86_400)
    .describe('How long to wait for the answer; the run ends TIMED_OUT when it passes (default 1 day)'),
});
export const startRobotBody = z.strictObject({
  ...site,
  activity: z.string().min(3).max(500).describe('What the robot should do'),
});
export const stopRobotBody = z.strictObject({ ...site, instance_id: uuidSchema.describe('Robot instance to stop') });
export const promptRobotBody = z.strictObject({
  ...site,
  instance_id: uuidSchema.describe('Robot instance to prompt (started or resumed when it is not running)'),
  prompt: z.string().min(1).max(10_000).describe('Instruction for the robot: a model plans browser actions and the robot performs them'),
  system_prompt: z.string().max(10_000).optional().describe('Extra instructions for the model'),
  tools: z
    .array(z.enum(['navigate', 'click', 'type', 'wait', 'extract', 'screenshot']))
    .min(1)
    .optional()
    .describe('Browser actions the model may plan (default all)'),
});
export const agentMessageBody = z.strictObject({
  ...site,
  agent_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Agent that receives the message: cmo, sales, customerSupport, email or copywriter (default: the conversation's agent, else cmo)"),
  message: z.string().min(1).max(10_000).describe('The message'),
  conversation_id: z
    .string()
    .max(200)
    .optional()
    .describe("Conversation of the site to continue (its id); without it a new conversation is started. The run's result names it, with the command"),
});

export type LeadFollowUpInput = z.infer<typeof leadFollowUpBody>;
export type EnrichLeadInput = z.infer<typeof enrichLeadBody>;
export type CustomerSupportInput = z.infer<typeof customerSupportBody>;
export type WebhookInput = z.infer<typeof webhookBody>;
export type LeadResearchInput = z.infer<typeof leadResearchBody>;
export type LeadInvalidationInput = z.infer<typeof leadInvalidationBody>;
export type AssignLeadsInput = z.infer<typeof assignLeadsBody>;
export type AnalyzeSiteInput = z.infer<typeof analyzeSiteBody>;
export type KeyAccountGenerationInput = z.infer<typeof keyAccountGenerationBody>;
export type BuildSegmentsInput = z.infer<typeof buildSegmentsBody>;
export type BuildCampaignsInput = z.infer<typeof buildCampaignsBody>;
export type BuildContentInput = z.infer<typeof buildContentBody>;
export type SyncEmailsInput = z.infer<typeof syncEmailsBody>;
export type DailyStandUpInput = z.infer<typeof dailyStandUpBody>;
export type HumanInterventionInput = z.infer<typeof humanInterventionBody>;
export type StartRobotInput = z.infer<typeof startRobotBody>;
export type StopRobotInput = z.infer<typeof stopRobotBody>;
export type PromptRobotInput = z.infer<typeof promptRobotBody>;
export type AgentMessageInput = z.infer<typeof agentMessageBody>;
