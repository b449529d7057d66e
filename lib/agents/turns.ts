import type { ContentEditorBody, EmailReplyBody } from './schema';

/**
 * The user's turn of each kind of request, as the agent reads it and as the conversation stores
 * it. Structured requests (an inbound email, a content edit, a site command) are written out as
 * plain text with their fields labelled, so the conversation reads naturally when continued.
 */
export const commandTurn = (c: { task: string; description: string; parameters: Record<string, unknown> }): string =>
  [
    `Task: ${c.task}`,
    c.description ? `Description: ${c.description}` : undefined,
    Object.keys(c.parameters).length ? `Parameters: ${JSON.stringify(c.parameters)}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');

export const emailTurn = (b: EmailReplyBody): string =>
  [
    'Draft a reply to this inbound email.',
    `From: ${b.from_name ? `${b.from_name} <${b.from}>` : b.from}`,
    `Subject: ${b.subject || '(no subject)'}`,
    b.instructions ? `Guidance for the reply: ${b.instructions}` : undefined,
    '',
    b.text,
  ]
    .filter((l) => l !== undefined)
    .join('\n');

const LENGTH_HINT = {
  shorter: 'noticeably shorter than the original',
  same: 'about as long as the original',
  longer: 'longer than the original',
} as const;

export const contentEditTurn = (b: ContentEditorBody): string =>
  [
    `Instruction: ${b.instruction}`,
    b.tone ? `Tone: ${b.tone}` : undefined,
    b.audience ? `Audience: ${b.audience}` : undefined,
    `Length: ${LENGTH_HINT[b.length]}`,
    `Format of the answer: ${b.format}`,
    '',
    'Content to edit:',
    b.content,
  ]
    .filter((l) => l !== undefined)
    .join('\n');
