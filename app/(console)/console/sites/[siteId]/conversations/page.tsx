import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import type { Conversation } from '@/lib/agents/schema';
import { listConversations } from '@/lib/agents/service';
import { AGENT_ROLES } from '@/lib/commands/schema';

export const metadata: Metadata = { title: 'Conversations · Site Growth Platform' };

/** The site's conversations with its agents, latest message first. */
export default async function ConversationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ siteId: string }>;
  searchParams: Promise<{ agent?: string; offset?: string }>;
}) {
  const { site } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const agent = AGENT_ROLES.find((a) => a === q.agent);
  const offset = offsetSchema.parse(q.offset);
  const { items, total } = await listConversations(site.id, { limit: PAGE_SIZE, offset, agent });
  const base = `/console/sites/${site.id}/conversations`;
  return (
    <Card title="Conversations" id="conversations">
      <nav className="range" aria-label="Agent">
        <Link href={base} aria-current={agent ? undefined : 'true'}>
          All agents
        </Link>
        {AGENT_ROLES.map((a) => (
          <Link key={a} href={`${base}?agent=${a}`} aria-current={agent === a ? 'true' : undefined}>
            {a}
          </Link>
        ))}
      </nav>
      <DataTable<Conversation>
        caption={`Conversations of ${site.name}`}
        rows={items}
        rowKey={(c) => c.conversation_id}
        empty={<EmptyState title="No conversations yet.">A message to an agent (a support chat, an email reply, a command) starts one.</EmptyState>}
        columns={[
          {
            header: 'Conversation',
            title: true,
            cell: (c) => (
              <Link href={`${base}/${c.conversation_id}`}>
                <strong className="wrap">{c.title || 'Untitled'}</strong>
              </Link>
            ),
          },
          { header: 'Agent', cell: (c) => c.agent },
          {
            header: 'Lead',
            cell: (c) => (c.lead_id ? <Link href={`/console/sites/${site.id}/leads/${c.lead_id}`}>Lead</Link> : <span className="empty">—</span>),
          },
          { header: 'Last message', cell: (c) => <Time iso={c.updated_at} /> },
        ]}
      />
      <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(base, q, { offset: o || undefined })} />
    </Card>
  );
}
