import type { Metadata } from 'next';
import { offsetSchema, PAGE_SIZE, pageHref } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Pager } from '@/components/kit/data-table';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { CAPABILITIES } from '@/lib/core/principal';
import { CAPABILITY_DESCRIPTIONS } from '@/lib/platform/schema';
import { auditOfSite, listApps, listKeysOfSite } from '@/lib/platform/service';
import { CreateAppForm, CreatePlatformKeyForm, RevokePlatformKeyButton } from './platform-forms';

export const metadata: Metadata = { title: 'Platform apps · Site Growth Platform' };

export default async function PlatformPage({ params, searchParams }: SitePageProps<{ audit?: string }>) {
  const { site } = await requireSiteAccess((await params).siteId, 'platform.manage');
  const offset = offsetSchema.parse((await searchParams).audit);
  const [apps, keys, audit] = await Promise.all([listApps(site.id), listKeysOfSite(site.id), auditOfSite(site.id, { limit: PAGE_SIZE, offset })]);
  const appName = new Map(apps.map((a) => [a.id, a.name]));
  return (
    <>
      <SectionTable
        title="Platform apps"
        id="platform-apps"
        intro={
          <>
            Generated applications of this site call the platform API with a platform key. Each app has its own database schema,{' '}
            <span className="mono">app_&lt;short id&gt;</span>.
          </>
        }
        caption={`Platform apps of ${site.name}`}
        rows={apps}
        empty="No apps yet."
        columns={[
          { header: 'Name', cell: (a) => a.name },
          { header: 'Schema', className: 'mono', cell: (a) => a.schema },
          { header: 'Created', cell: (a) => <Time iso={a.created_at} /> },
        ]}
      >
        <CreateAppForm siteId={site.id} />
      </SectionTable>

      <SectionTable
        title="Platform keys"
        id="platform-keys"
        caption={`Platform keys of ${site.name}`}
        rows={keys}
        empty="No platform keys yet."
        columns={[
          { header: 'Name', cell: (k) => k.name },
          { header: 'App', cell: (k) => appName.get(k.app_id) },
          { header: 'Key', className: 'mono', cell: (k) => k.display },
          { header: 'Capabilities', className: 'mono', cell: (k) => k.capabilities.join(', ') },
          { header: 'Status', cell: (k) => k.status },
          { header: 'Expires', cell: (k) => <Time iso={k.expires_at} /> },
          {
            header: 'Actions',
            hideHeader: true,
            cell: (k) => k.status === 'active' && <RevokePlatformKeyButton siteId={site.id} keyId={k.id} name={k.name} />,
          },
        ]}
      >
        {apps.length > 0 ? (
          <CreatePlatformKeyForm
            siteId={site.id}
            apps={apps.map((a) => ({ id: a.id, name: a.name }))}
            capabilities={CAPABILITIES.map((c) => ({ name: c, description: CAPABILITY_DESCRIPTIONS[c] }))}
          />
        ) : (
          <p className="hint">Create an app first: every key is bound to one app.</p>
        )}
        <details>
          <summary>What each capability allows</summary>
          <dl>
            {CAPABILITIES.map((c) => (
              <div key={c}>
                <dt className="mono">{c}</dt>
                <dd>{CAPABILITY_DESCRIPTIONS[c]}</dd>
              </div>
            ))}
          </dl>
        </details>
      </SectionTable>

      <SectionTable
        title="Audit log"
        id="platform-audit"
        intro="Every call made with a platform key of this site, refused ones included, newest first."
        caption={`Platform API calls of ${site.name}`}
        rows={audit.items}
        empty="No platform calls yet."
        columns={[
          { header: 'When', cell: (e) => <Time iso={e.created_at} /> },
          { header: 'App', cell: (e) => appName.get(e.app_id) },
          { header: 'Call', className: 'mono', cell: (e) => `${e.method} ${e.route}` },
          { header: 'Capability', className: 'mono', cell: (e) => e.capability },
          {
            header: 'Status',
            cell: (e) => (
              <>
                {e.status}
                {e.error_code && <span className="sub"> {e.error_code}</span>}
              </>
            ),
          },
        ]}
      >
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          total={audit.meta.total}
          href={pageHref(`/console/sites/${site.id}/platform`, { param: 'audit', anchor: 'platform-audit' })}
        />
      </SectionTable>
    </>
  );
}
