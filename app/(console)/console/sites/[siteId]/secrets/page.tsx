import type { Metadata } from 'next';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { listSiteSecureTokens, siteAudit } from '@/lib/secure-tokens/service';
import { AddSecretForm } from './add-secret-form';
import { DeleteSecretButton } from './delete-secret-button';

export const metadata: Metadata = { title: 'Secrets · Site Growth Platform' };

const OUTCOME_LABEL: Record<string, string> = {
  ok: 'ok',
  not_found: 'not found',
  rate_limited: 'rate limited',
  integrity_failure: 'failed integrity check',
  key_unavailable: 'master key missing',
};

/** `offset` pages the secrets, `activity` the audit below them: each list keeps the other's page. */
type Search = { offset?: string; activity?: string };

export default async function SecretsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site } = await requireSiteAccess((await params).siteId, 'secrets.manage');
  const q = await searchParams;
  const offset = offsetSchema.parse(q.offset);
  const activity = offsetSchema.parse(q.activity);
  const [{ items: secrets, meta }, { items: audit, meta: auditMeta }] = await Promise.all([
    listSiteSecureTokens(site.id, { limit: PAGE_SIZE, offset }),
    siteAudit(site.id, { limit: PAGE_SIZE, offset: activity }),
  ]);
  const base = `/console/sites/${site.id}/secrets`;
  const query = { offset: q.offset, activity: q.activity };
  return (
    <>
      <Card title="Secrets" id="secrets">
        <p>
          Credentials your integrations need, encrypted at rest. Servers read one with{' '}
          <span className="mono">POST /api/secure-tokens/&#123;id&#125;/decrypt</span> and a write key of this site; every read is recorded below.
        </p>
        <DataTable
          caption={`Secrets of ${site.name}`}
          rows={secrets}
          rowKey={(s) => s.identifier}
          empty={<EmptyState title="No secrets stored for this site." />}
          columns={[
            { header: 'Identifier', className: 'mono', cell: (s) => s.identifier },
            { header: 'Type', cell: (s) => s.type },
            { header: 'Id', className: 'mono', cell: (s) => s.id },
            { header: 'Created', cell: (s) => <Time iso={s.created_at} /> },
            { header: 'Last used', cell: (s) => (s.last_used_at ? <Time iso={s.last_used_at} /> : 'never') },
            { header: 'Key version', cell: (s) => `v${s.key_version}` },
            { header: 'Actions', hideHeader: true, cell: (s) => <DeleteSecretButton siteId={site.id} tokenId={s.id} identifier={s.identifier} /> },
          ]}
        />
        <Pager offset={offset} limit={PAGE_SIZE} total={meta.total} href={(o) => withQuery(base, query, { offset: o || undefined })} />
      </Card>
      <Card title="Store a secret" id="add-secret">
        <AddSecretForm siteId={site.id} />
      </Card>
      <Card title="Recent activity" id="secret-audit">
        <DataTable
          caption="Latest reads, additions and deletions of secrets"
          rows={audit}
          rowKey={(a) => a.id}
          empty={<EmptyState title="Nothing yet." />}
          columns={[
            { header: 'When', cell: (a) => <Time iso={a.created_at} /> },
            { header: 'Action', cell: (a) => a.action },
            { header: 'Secret', className: 'mono', cell: (a) => a.identifier ?? a.token_id },
            { header: 'Outcome', cell: (a) => OUTCOME_LABEL[a.outcome] ?? a.outcome },
            { header: 'By', className: 'mono', cell: (a) => (a.api_key_id ? `key ${a.api_key_id.slice(0, 8)}…` : 'console') },
          ]}
        />
        <Pager
          offset={activity}
          limit={PAGE_SIZE}
          total={auditMeta.total}
          href={(o) => `${withQuery(base, query, { activity: o || undefined })}#secret-audit-heading`}
        />
      </Card>
    </>
  );
}
