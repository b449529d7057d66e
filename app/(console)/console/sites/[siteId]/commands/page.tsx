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
import { COMMAND_STATUSES, FINISHED_STATUSES, type Command, type CommandStatus } from '@/lib/commands/schema';
import { listCommands } from '@/lib/commands/service';
import { can } from '@/lib/members/permissions';
import { CancelCommandButton } from './cancel-command-button';

export const metadata: Metadata = { title: 'Commands · Site Growth Platform' };

/** What the site asked its agents to do, with the status of each; an unfinished one can be cancelled. */
export default async function CommandsPage({ params, searchParams }: SitePageProps<{ status?: string; offset?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const status = COMMAND_STATUSES.find((s) => s === q.status);
  const offset = offsetSchema.parse(q.offset);
  const { items, total } = await listCommands(site.id, { limit: PAGE_SIZE, offset, status });
  const base = `/console/sites/${site.id}`;
  return (
    <Card title="Commands" id="commands">
      <FilterLinks
        label="Status"
        all="All"
        values={COMMAND_STATUSES}
        current={status}
        href={(s) => (s ? `${base}/commands?status=${s}` : `${base}/commands`)}
      />
      <DataTable<Command>
        caption={`Commands of ${site.name}`}
        rows={items}
        rowKey={(c) => c.command_id}
        empty={
          <EmptyState title={status ? `No ${status} command.` : 'No commands yet.'}>
            Messages to the agents and commands sent with an API key show here.
          </EmptyState>
        }
        columns={[
          {
            header: 'Task',
            title: true,
            cell: (c) => (
              <>
                <strong className="wrap">{c.task}</strong>
                <span className="sub">{c.agent}</span>
                {c.error && <span className="sub error">{c.error.message}</span>}
              </>
            ),
          },
          { header: 'Status', cell: (c) => <span className={`badge ${c.status}`}>{c.status}</span> },
          { header: 'Created', cell: (c) => <Time iso={c.created_at} /> },
          { header: 'Finished', cell: (c) => (c.finished_at ? <Time iso={c.finished_at} /> : <span className="empty">—</span>) },
          {
            header: 'Actions',
            cell: (c) => (
              <div className="actions">
                {c.conversation_id && <Link href={`${base}/conversations/${c.conversation_id}`}>Conversation</Link>}
                {can(role, 'crm.write') && !FINISHED_STATUSES.includes(c.status as CommandStatus) && (
                  <CancelCommandButton siteId={site.id} commandId={c.command_id} />
                )}
              </div>
            ),
          },
        ]}
      />
      <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(`${base}/commands`, q, { offset: o || undefined })} />
    </Card>
  );
}
