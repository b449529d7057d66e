import { generateText } from 'ai';
import { agentModel } from '@/lib/providers/llm';

/**
 * The email agent's part in a sequence: the body of an agent-drafted step, written for one lead
 * from the step's instructions. Without a configured model this throws MODEL_NOT_CONFIGURED (the
 * caller ends the enrollment with it): nothing is ever made up in its place.
 */
export interface DraftRequest {
  siteName: string;
  industry: string | null;
  lead: { name: string; email: string; company: string | null; position: string | null; notes: string | null };
  /** The step's instructions, its variables filled in. */
  instructions: string;
  /** The subject the message goes out with. */
  subject: string;
}

export async function draftStepBody(request: DraftRequest): Promise<string> {
  const llm = agentModel();
  const { lead } = request;
  const { text } = await generateText({
    model: llm.model,
    system:
      `You are the email assistant of ${request.siteName}${request.industry ? ` (${request.industry})` : ''}. ` +
      'You write one outreach email of a sequence to one lead, following the instructions. Answer with the body of the email only: ' +
      'no subject line, no signature placeholder, no placeholders such as [Name], plain text, short. Never invent facts about the lead.',
    prompt: [
      `Instructions: ${request.instructions}`,
      `Subject: ${request.subject}`,
      `Lead: ${lead.name} <${lead.email}>${lead.position ? `, ${lead.position}` : ''}${lead.company ? ` at ${lead.company}` : ''}`,
      lead.notes ? `Notes on the lead: ${lead.notes.slice(0, 2_000)}` : undefined,
    ]
      .filter(Boolean)
      .join('\n'),
    maxRetries: llm.maxRetries,
    abortSignal: AbortSignal.timeout(llm.timeoutMs),
  });
  return text.trim();
}
