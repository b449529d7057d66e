import type { Metadata } from 'next';
import Link from 'next/link';
import { requireOwnedSite } from '@/app/(console)/_lib/session';
import { publicOrigin, trackingSnippet } from '@/app/(console)/_lib/snippet';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { listSiteOrigins } from '@/lib/sites/service';

export const metadata: Metadata = { title: 'Tracking snippet · Site Growth Platform' };

export default async function SnippetPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const snippet = trackingSnippet(await publicOrigin(), site.id);
  const extra = await listSiteOrigins(site.id);
  return (
    <Card title="Tracking snippet" id="snippet">
      <p>Paste this into every page of your site, just before the closing &lt;/body&gt; tag:</p>
      <pre className="code" data-testid="tracking-snippet">
        <code>{snippet}</code>
      </pre>
      <CopyButton text={snippet} label="Copy snippet" />
      <p className="hint">
        {site.domain ? (
          <>
            Browsers on <strong>{site.domain}</strong> and <strong>{wwwTwin(site.domain)}</strong>
            {extra.length > 0 && <> and {extra.length === 1 ? 'one more allowed origin' : `${extra.length} more allowed origins`}</>} send visitor
            events without an API key.
          </>
        ) : extra.length > 0 ? (
          <>Browsers on this site&apos;s allowed origins send visitor events without an API key.</>
        ) : (
          <>This site has no domain and no allowed origins yet: browsers cannot send visitor events for it.</>
        )}{' '}
        <Link href={`/console/sites/${site.id}/origins`}>Manage allowed origins</Link>. Server-to-server calls use an API key; see the{' '}
        <a href="/docs">API reference</a>.
      </p>
    </Card>
  );
}

/** The domain with or without `www.`: the site's origin check accepts both. */
const wwwTwin = (domain: string) => (domain.startsWith('www.') ? domain.slice(4) : `www.${domain}`);
