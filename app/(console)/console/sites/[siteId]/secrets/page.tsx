import type { Metadata } from 'next';
import { offsetSchema, PAGE_SIZE, pageHref } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Pager } from '@/components/kit/data-table';
import { SectionTable } from '@/components/kit/section-table';
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
      <SectionTable
        title="Secrets"
        id="secrets"
        intro={
          <>
            Credentials your integrations need, encrypted at rest. Servers read one with{' '}
            <span className="mono">POST /api/secure-tokens/&#123;id&#125;/decrypt</span> and a write key of this site; every read is recorded below.
          </>
        }
        caption={`Secrets of ${site.name}`}
        rows={secrets}
        rowKey={(s) => s.identifier}
        empty="No secrets stored for this site."
        add={{ title: 'Store a secret', id: 'add-secret', form: <AddSecretForm siteId={site.id} /> }}
        columns={[
          { header: 'Identifier', className: 'mono', cell: (s) => s.identifier },
          { header: 'Type', cell: (s) => s.type },
          { header: 'Id', className: 'mono', cell: (s) => s.id },
          { header: 'Created', cell: (s) => <Time iso={s.created_at} /> },
          { header: 'Last used', cell: (s) => (s.last_used_at ? <Time iso={s.last_used_at} /> : 'never') },
          { header: 'Key version', cell: (s) => `v${s.key_version}` },
          { header: 'Actions', hideHeader: true, cell: (s) => <DeleteSecretButton siteId={site.id} tokenId={s.id} identifier={s.identifier} /> },
        ]}
      >
        <Pager offset={offset} limit={PAGE_SIZE} total={meta.total} href={pageHref(base, { query })} />
      </SectionTable>
      <SectionTable
        title="Recent activity"
        id="secret-audit"
        caption="Latest reads, additions and deletions of secrets"
        rows={audit}
        empty="Nothing yet."
        columns={[
          { header: 'When', cell: (a) => <Time iso={a.created_at} /> },
          { header: 'Action', cell: (a) => a.action },
          { header: 'Secret', className: 'mono', cell: (a) => a.identifier ?? a.token_id },
          { header: 'Outcome', cell: (a) => OUTCOME_LABEL[a.outcome] ?? a.outcome },
          { header: 'By', className: 'mono', cell: (a) => (a.api_key_id ? `key ${a.api_key_id.slice(0, 8)}…` : 'console') },
        ]}
      >
        <Pager
          offset={activity}
          limit={PAGE_SIZE}
          total={auditMeta.total}
          href={pageHref(base, { query, param: 'activity', anchor: 'secret-audit' })}
        />
      </SectionTable>
    </>
  );
}
