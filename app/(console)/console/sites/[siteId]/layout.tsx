import Link from 'next/link';
import type { ReactNode } from 'react';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { siteTimeZone } from '@/components/dates';
import { SiteNav } from '@/components/site-nav';
import { SiteTimeZone } from '@/components/site-time-zone';

/**
 * A site's frame: its name, its details (domain, the member's role, the site id) and its menu. On
 * phones the details and the menu fold behind two buttons (console.css), so a page's first
 * figures are above the fold.
 */
export default async function SiteLayout({ children, params }: { children: ReactNode; params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  return (
    <>
      <p className="crumbs">
        <Link href="/console">Sites</Link> / {site.name}
      </p>
      <div className="site-head">
        <h1>{site.name}</h1>
        <details className="site-info">
          <summary>
            {site.domain ?? 'No domain'}
            <span className="visually-hidden">: site details</span>
          </summary>
          <div className="site-meta">
            <span>{site.domain ?? 'No domain'}</span>
            <span>Your role: {role}</span>
            <span>
              Site ID <code>{site.id}</code> <CopyButton text={site.id} label="Copy ID" small />
            </span>
          </div>
        </details>
      </div>
      <div className="site-shell">
        <SiteNav siteId={site.id} role={role} />
        <div className="site-body">
          <SiteTimeZone zone={siteTimeZone(site.settings)}>{children}</SiteTimeZone>
        </div>
      </div>
    </>
  );
}
