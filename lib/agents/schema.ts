import { z } from 'zod';
import { AGENT_ROLES, COMMAND_STATUSES, ToolCallSchema } from '@/lib/commands/schema';
import { isoTimestamp, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Bodies and answers of the agent routes (`/api/agents/...`) and the conversation routes. Every
 * agent request becomes a command run by the role's agent; the answer is the command to poll
 * (`GET /sites/{site_id}/commands/{command_id}`), or the streamed reply with
 * `Accept: text/event-stream`.
 */
const conversationRefs = {
  site_id: siteIdSchema,
  conversation_id: uuidSchema
    .optional()
    .describe("Continue this conversation of the site with the same agent (its earlier messages are the agent's context); omit to start a new one"),
  lead_id: uuidSchema
    .optional()
    .describe(
      "One of the site's leads the conversation is about; its details are given to the agent (set when a conversation starts; a continued one keeps its own)",
    ),
  visitor_id: uuidSchema.optional().describe('The site visitor the conversation is with (set when a conversation starts)'),
};

export const agentMessageBodySchema = z.strictObject({
  ...conversationRefs,
  message: z.string().trim().min(1).max(20_000).describe('What you ask or tell the agent (at most 20,000 characters)'),
});

/** A message of the site's owner (signed in) in one of the site's conversations. */
export const ownerMessageBodySchema = z.strictObject({
  message: agentMessageBodySchema.shape.message,
});
/** A new conversation the site's owner (signed in) starts with one of the site's agents. */
export const ownerConversationBodySchema = z.strictObject({
  agent: z.enum(AGENT_ROLES).describe('The agent to talk to: cmo, sales, customerSupport, email or copywriter'),
  message: agentMessageBodySchema.shape.message,
});
export const conversationPathSchema = z.strictObject({ site_id: siteIdSchema, conversation_id: uuidSchema.describe('A conversation of the site') });

export const emailReplyBodySchema = z.strictObject({
  ...conversationRefs,
  from: z.email('Must be a valid email address').max(320).describe('Sender address of the inbound email'),
  from_name: z.string().trim().max(200).optional().describe('Sender display name'),
  subject: z.string().trim().max(998).default('').describe('Subject of the inbound email'),
  text: z.string().trim().min(1).max(50_000).describe('Plain-text body of the inbound email (quoted history may be included)'),
  instructions: z.string().trim().max(2_000).optional().describe('Extra guidance for this reply (e.g. "offer a call next week")'),
});

export const CONTENT_FORMATS = ['plain', 'markdown', 'html'] as const;
export const CONTENT_LENGTHS = ['shorter', 'same', 'longer'] as const;

export const contentEditorBodySchema = z.strictObject({
  site_id: siteIdSchema,
  conversation_id: conversationRefs.conversation_id,
  content: z.string().min(1).max(100_000).describe('The content to edit'),
  instruction: z.string().trim().min(1).max(5_000).describe('What to change (e.g. "make it more concise and add a call to action")'),
  tone: z.string().trim().max(200).optional().describe("Tone for this edit (default: the brand's voice and tone from the site settings)"),
  audience: z.string().trim().max(500).optional().describe('Who the content is for'),
  length: z.enum(CONTENT_LENGTHS).default('same').describe('Target length relative to the original: shorter, same (default) or longer'),
  format: z.enum(CONTENT_FORMATS).default('plain').describe('Format of the edited content: plain (default), markdown or html'),
});

export type AgentMessageBody = z.infer<typeof agentMessageBodySchema>;
export type EmailReplyBody = z.infer<typeof emailReplyBodySchema>;
export type ContentEditorBody = z.infer<typeof contentEditorBodySchema>;

export const AgentAcceptedSchema = z.object({
  command_id: uuidSchema.describe('Poll GET /sites/{site_id}/commands/{command_id} for the reply'),
  conversation_id: uuidSchema.describe('The conversation the message and the reply belong to'),
  status: z.enum(COMMAND_STATUSES).describe('`pending` when queued'),
});

export const ConversationSchema = z.object({
  conversation_id: uuidSchema,
  site_id: uuidSchema,
  agent: z.enum(AGENT_ROLES),
  title: z.string().describe("The start of the first message (an email's sender and subject, an edit's instruction, a command's task)"),
  lead_id: uuidSchema.nullable(),
  visitor_id: uuidSchema.nullable(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp.describe('Time of the latest message'),
});

export const ConversationMessageSchema = z.object({
  message_id: uuidSchema,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  tool_calls: z.array(ToolCallSchema).describe('Tools the agent called for this reply (assistant messages)'),
  command_id: uuidSchema.nullable().describe('The command that carried this message'),
  created_at: isoTimestamp,
});

export const ConversationDetailSchema = ConversationSchema.extend({
  messages: z.array(ConversationMessageSchema).describe('Oldest first'),
});

export const listConversationsQuerySchema = paginationQuerySchema
  .extend({
    site_id: siteIdSchema,
    agent: z.enum(AGENT_ROLES).optional().describe('Only conversations with this agent'),
  })
  .strict();

export const getConversationQuerySchema = z.strictObject({ site_id: siteIdSchema });

export type Conversation = z.infer<typeof ConversationSchema>;
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;
