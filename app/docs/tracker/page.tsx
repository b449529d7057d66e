import type { Metadata } from 'next';
import { publicOrigin } from '@/app/(console)/_lib/request-origin';
import { currentUser } from '@/app/(console)/_lib/session';
import { TrackerGuide } from '@/components/tracker-guide';
import { listSitesOfMember } from '@/lib/sites/service';
import { DocsHeader } from '../docs-header';
import styles from '../docs.module.css';

export const metadata: Metadata = { title: 'Tracker guide — Site Growth Platform' };
export const dynamic = 'force-dynamic';

// /docs/tracker — the tracking tag's guide, its snippets written for this app's origin (and the signed-in owner's first site)
export default async function TrackerGuidePage() {
  const user = await currentUser();
  const [site] = user ? await listSitesOfMember(user.id) : [];
  const origin = await publicOrigin();
  return (
    <div className={styles.page}>
      <DocsHeader current="tracker" user={user ?? null} />
      <main className={styles.guide}>
        <h1>Tracker guide</h1>
        <p>
          The tracking tag counts visits, pages and clicks on a shop&apos;s own site and ties them to leads.{' '}
          {site ? (
            <>
              The snippets below are written for <strong>{site.name}</strong>; each site&apos;s Tracking snippet page has them with its own id.
            </>
          ) : (
            <>
              Replace <code>SITE_ID</code> with your site&apos;s id (in the console: Developers → Tracking snippet, where these snippets have it
              already).
            </>
          )}{' '}
          The tag&apos;s own options are listed on that page too; the events it sends are <code>POST /api/visitors/*</code> in the{' '}
          <a href="/docs">API reference</a>.
        </p>
        <TrackerGuide origin={origin} siteId={site?.id ?? 'SITE_ID'} domain={site?.domain} level={2} />
      </main>
    </div>
  );
}
