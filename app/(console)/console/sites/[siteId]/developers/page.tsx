import type { Metadata } from 'next';
import Link from 'next/link';
import { API_EQUIVALENTS } from '@/app/(console)/_lib/api-equivalents';
import { publicOrigin } from '@/app/(console)/_lib/request-origin';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { SITE_SECTIONS } from '@/components/site-sections';
import { can } from '@/lib/members/permissions';

export const metadata: Metadata = { title: 'API for each page · Site Growth Platform' };

/** The Developers area's home: where the API is, the site's id, and for each console page the API calls that do the same. */
export default async function DevelopersPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const origin = await publicOrigin();
  const base = `/console/sites/${site.id}`;
  const rows = API_EQUIVALENTS.flatMap(({ section, calls }) => {
    const found = SITE_SECTIONS.find((s) => s.path === section);
    return found && (!found.permission || can(role, found.permission)) ? [{ section: found, calls }] : [];
  });
  return (
    <>
      <Card title="Developers" id="developers">
        <p>
          Everything the console does, a program can do through the API at <code>{origin}</code> with an{' '}
          {can(role, 'keys.manage') ? <Link href={`${base}/keys`}>API key</Link> : 'API key'} of this site (<code>X-API-Key</code> or{' '}
          <code>Authorization: Bearer</code>). Shapes, errors and examples are in the <a href="/docs">API reference</a>, where each call can be tried.
        </p>
        <p className="site-id">
          Site ID <code data-testid="developers-site-id">{site.id}</code> <CopyButton text={site.id} label="Copy ID" small />
        </p>
      </Card>
      <Card title="The API for each page" id="api-for-pages">
        <DataTable
          caption="Console pages and the API calls that do the same"
          rows={rows}
          rowKey={(r) => r.section.path || '/'}
          empty={null}
          columns={[
            { header: 'Page', title: true, cell: (r) => <Link href={base + r.section.path}>{r.section.label}</Link> },
            {
              header: 'API calls',
              cell: (r) => (
                <ul className="api-calls">
                  {r.calls.map((c) => (
                    <li key={c.call}>
                      <code className="wrap">{c.call}</code> <span className="sub">{c.does}</span>
                    </li>
                  ))}
                </ul>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
