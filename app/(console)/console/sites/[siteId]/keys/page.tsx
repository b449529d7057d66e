import type { Metadata } from 'next';
import Link from 'next/link';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { listKeysForUser } from '@/lib/keys/service';
import { CreateKeyForm } from './create-key-form';
import { RevokeKeyButton } from './revoke-key-button';

export const metadata: Metadata = { title: 'API keys · Site Growth Platform' };

export default async function SiteKeysPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { user, site } = await requireSiteAccess((await params).siteId, 'keys.manage');
  const keys = await listKeysForUser(user, site.id);
  return (
    <>
      <Card title="Create a key" id="create-key">
        <CreateKeyForm siteId={site.id} />
      </Card>
      <SectionTable
        title="API keys"
        id="keys"
        caption={`API keys of ${site.name}`}
        rows={keys}
        empty={<EmptyState title="No keys yet.">Create one to call the API for this site.</EmptyState>}
        columns={[
          {
            header: 'Name',
            cell: (key) => (
              <>
                <strong className="wrap">{key.name}</strong>
                <span className="sub mono">{key.display}</span>
                <span className="sub">
                  {key.scopes.join(', ')} · created <Time iso={key.created_at} />
                </span>
              </>
            ),
          },
          {
            header: 'Status',
            cell: (key) => (
              <>
                <span className={`badge ${key.status}`}>{key.status}</span>
                {key.revoked_at && (
                  <span className="sub">
                    <Time iso={key.revoked_at} />
                  </span>
                )}
              </>
            ),
          },
          {
            header: 'Last used',
            cell: (key) => (key.last_used_at ? <Time iso={key.last_used_at} withDate /> : <span className="empty">Never</span>),
          },
          {
            header: 'Expires',
            cell: (key) => (key.status === 'revoked' ? <span className="empty">— (revoked)</span> : <Time iso={key.expires_at} withDate />),
          },
          {
            header: 'Actions',
            cell: (key) => (
              <div className="actions">
                <Link href={`/console/sites/${site.id}/keys/${key.id}`}>
                  Usage<span className="visually-hidden"> of {key.name}</span>
                </Link>
                {key.status !== 'revoked' && <RevokeKeyButton siteId={site.id} keyId={key.id} keyName={key.name} />}
              </div>
            ),
          },
        ]}
      />
    </>
  );
}
