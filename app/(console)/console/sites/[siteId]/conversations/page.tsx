import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { FilterLinks } from '@/components/kit/page-filters';
import { Time } from '@/components/time';
import type { Conversation } from '@/lib/agents/schema';
import { listConversations } from '@/lib/agents/service';
import { AGENT_ROLES } from '@/lib/commands/schema';
import { can } from '@/lib/members/permissions';
import { modelConfigured } from '@/lib/providers/llm';
import { StartConversationForm } from './start-conversation-form';

/** The agents as the owner knows them. */
const AGENT_LABELS: Record<(typeof AGENT_ROLES)[number], string> = {
  cmo: 'CMO — marketing plans, campaigns, segments',
  sales: 'Sales — qualify and advance leads',
  customerSupport: 'Customer support — answer customers',
  email: 'Email — draft email replies',
  copywriter: 'Copywriter — write and edit content',
};
const shortLabel = (role: (typeof AGENT_ROLES)[number]) => AGENT_LABELS[role].split(' — ')[0];

export const metadata: Metadata = { title: 'Conversations · Site Growth Platform' };

/** The site's conversations with its agents, latest message first. */
export default async function ConversationsPage({ params, searchParams }: SitePageProps<{ agent?: string; offset?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const agent = AGENT_ROLES.find((a) => a === q.agent);
  const offset = offsetSchema.parse(q.offset);
  const { items, total } = await listConversations(site.id, { limit: PAGE_SIZE, offset, agent });
  const base = `/console/sites/${site.id}/conversations`;
  const writable = can(role, 'crm.write');
  const withModel = modelConfigured();
  return (
    <>
      {writable && (
        <Card title="Start a conversation" id="start-conversation">
          {withModel ? (
            <StartConversationForm siteId={site.id} agents={AGENT_ROLES.map((r) => ({ role: r, label: AGENT_LABELS[r], short: shortLabel(r) }))} />
          ) : (
            <p role="status" data-testid="model-not-configured">
              <strong>No language model is configured (MODEL_NOT_CONFIGURED),</strong> so the agents cannot answer yet. The operator sets{' '}
              <code>LLM_BASE_URL</code> and <code>LLM_MODEL</code> (and <code>LLM_API_KEY</code> when the endpoint needs one) for this deployment; see{' '}
              <a href="/docs">the docs</a>.
            </p>
          )}
        </Card>
      )}
      <Card title="Conversations" id="conversations">
        <FilterLinks
          label="Agent"
          all="All agents"
          values={AGENT_ROLES}
          current={agent}
          name={shortLabel}
          href={(a) => (a ? `${base}?agent=${a}` : base)}
        />
        <DataTable<Conversation>
          caption={`Conversations of ${site.name}`}
          rows={items}
          rowKey={(c) => c.conversation_id}
          empty={
            <EmptyState title="No conversations yet.">
              Start one above, or let one start from a support chat, an email reply, a command or an agentMessage workflow.
            </EmptyState>
          }
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
            { header: 'Agent', cell: (c) => shortLabel(c.agent) },
            {
              header: 'Lead',
              cell: (c) => (c.lead_id ? <Link href={`/console/sites/${site.id}/leads/${c.lead_id}`}>Lead</Link> : <span className="empty">—</span>),
            },
            { header: 'Last message', cell: (c) => <Time iso={c.updated_at} /> },
          ]}
        />
        <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(base, q, { offset: o || undefined })} />
      </Card>
    </>
  );
}
