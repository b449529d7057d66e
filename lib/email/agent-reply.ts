import { getCommand } from '@/lib/commands/service';
import { ApiError, notFound } from '@/lib/core/errors';
import { withLock } from '@/lib/db/lock';
import { findAnswer, findMessage } from './repo';
import type { SentEmail } from './schema';
import { sendEmail } from './service';

/**
 * Sends the email agent's answer to a message received in the site's mailbox: the draft of the
 * command the message was handed to (or the owner's own text), to its sender, through the one
 * email port — from the site's sender identity, `Re:` its subject, In-Reply-To and References its
 * Message-ID (so the answer threads in the recipient's client and a further reply threads back
 * here), linked to the lead and the agent's conversation. The suppression list applies (422
 * UNPROCESSABLE, nothing sent). A message is answered once (409 CONFLICT after that); bounces and
 * automatic replies are never answered (422).
 */
export function sendAgentReply(siteId: string, emailId: string, input: { text?: string }, requestOrigin?: string): Promise<SentEmail> {
  // The answered-once check and the send are one step: delivery (SMTP) is outside any transaction.
  return withLock(`email-answer:${siteId}:${emailId}`, () => answer(siteId, emailId, input, requestOrigin));
}

async function answer(siteId: string, emailId: string, input: { text?: string }, requestOrigin?: string): Promise<SentEmail> {
  const inbound = await findMessage(siteId, emailId);
  if (!inbound || inbound.direction !== 'inbound') throw notFound('Received email');
  if (inbound.kind === 'bounce' || inbound.kind === 'auto_reply') {
    throw new ApiError('UNPROCESSABLE', 'Bounces and automatic replies are never answered', { kind: inbound.kind });
  }
  const to = inbound.from;
  if (!to.includes('@')) throw new ApiError('UNPROCESSABLE', 'The message has no sender address to answer');
  if (inbound.message_id && (await findAnswer(siteId, inbound.message_id))) {
    throw new ApiError('CONFLICT', 'This message has been answered already');
  }
  let text = input.text;
  if (text === undefined) {
    const command = inbound.command_id ? await getCommand(siteId, inbound.command_id) : undefined;
    if (!command || command.status !== 'completed' || !command.reply?.trim()) {
      throw new ApiError('CONFLICT', 'The email agent has no finished draft for this message; send your own text', {
        command_id: inbound.command_id,
        command_status: command?.status ?? null,
      });
    }
    text = command.reply.trim();
  }
  const original = inbound.subject.trim() || 'your message';
  const subject = /^re:/i.test(original) ? original : `Re: ${original}`;
  return sendEmail(
    siteId,
    null,
    {
      to: [to],
      subject: subject.slice(0, 998),
      text,
      ...(inbound.message_id
        ? { inReplyTo: inbound.message_id, references: [inbound.in_reply_to, inbound.message_id].filter((id): id is string => Boolean(id)) }
        : {}),
    },
    { leadId: inbound.lead_id, conversationId: inbound.conversation_id, unsubscribeFooter: true, requestOrigin },
  );
}
