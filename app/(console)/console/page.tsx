import type { Metadata } from 'next';
import Link from 'next/link';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { listSitesOfMember } from '@/lib/sites/service';
import { requireUser } from '../_lib/session';
import { CreateSiteForm } from './create-site-form';

export const metadata: Metadata = { title: 'Sites · Site Growth Platform' };

export default async function SitesPage({ searchParams }: { searchParams: Promise<{ deleted?: string | string[] }> }) {
  const user = await requireUser();
  const sites = await listSitesOfMember(user.id);
  const { deleted } = await searchParams;
  return (
    <>
      <h1>Sites</h1>
      {typeof deleted === 'string' && (
        <p className="notice" role="status">
          Site “{deleted}” and all its data were deleted.
        </p>
      )}
      <div className="grid-2">
        <Card title="Your sites" id="sites">
          {sites.length === 0 ? (
            <EmptyState title="No sites yet.">Create your first one to get API keys and a tracking snippet.</EmptyState>
          ) : (
            <ul className="site-list">
              {sites.map((site) => (
                <li key={site.id}>
                  <Link href={`/console/sites/${site.id}`}>
                    <span className="name wrap">{site.name}</span>
                    <span className="sub">
                      {site.domain ?? 'No domain'} · {site.role} · created <Time iso={site.created_at} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Create a site" id="create-site">
          <CreateSiteForm />
        </Card>
      </div>
    </>
  );
}
