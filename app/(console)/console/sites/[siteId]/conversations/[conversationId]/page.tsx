import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { BackLink } from '@/components/kit/page-back-link';
import { Time } from '@/components/time';
import { getConversation } from '@/lib/agents/service';
import { isUuid } from '@/lib/core/schemas';
import { can } from '@/lib/members/permissions';
import { SendMessageForm } from './send-message-form';

export const metadata: Metadata = { title: 'Conversation · Site Growth Platform' };

/** One conversation with an agent, oldest message first, with the tools the agent called. */
export default async function ConversationPage({ params }: { params: Promise<{ siteId: string; conversationId: string }> }) {
  const { siteId, conversationId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const conversation = isUuid(conversationId) ? await getConversation(site.id, conversationId.toLowerCase()) : undefined;
  if (!conversation) notFound();
  const base = `/console/sites/${site.id}`;
  return (
    <>
      <BackLink href={`${base}/conversations`} label="All conversations" />
      <Card title={conversation.title || 'Conversation'} id="conversation" actions={<span className="badge info">{conversation.agent}</span>}>
        {conversation.messages.length === 0 ? (
          <EmptyState title="No messages yet." />
        ) : (
          <ol className="chat" data-testid="messages">
            {conversation.messages.map((m) => (
              <li key={m.message_id} className={m.role}>
                <span className="who">
                  {m.role === 'user' ? 'Message' : conversation.agent} · <Time iso={m.created_at} />
                </span>
                {m.content}
                {m.tool_calls.length > 0 && <span className="sub">Tools: {m.tool_calls.map((t) => t.name).join(', ')}</span>}
              </li>
            ))}
          </ol>
        )}
      </Card>
      {can(role, 'crm.write') && (
        <Card title="Write in this conversation" id="send">
          <SendMessageForm siteId={site.id} conversationId={conversation.conversation_id} agent={conversation.agent} />
        </Card>
      )}
    </>
  );
}
