import type { Metadata } from 'next';
import Link from 'next/link';
import { publicOrigin } from '@/app/(console)/_lib/request-origin';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { TrackerGuide } from '@/components/tracker-guide';
import { trackingSnippet } from '@/components/tracking-snippet';
import { listSiteOrigins } from '@/lib/sites/service';
import { DOWNLOAD_EXTENSIONS } from '@/lib/visitors/snippet';

export const metadata: Metadata = { title: 'Tracking snippet · Site Growth Platform' };

/** A term and what it means: a row of the guide's tables. */
type Entry = { term: string; text: string };

/** Every attribute the tag reads from its script element (lib/visitors/snippet.ts). */
const ATTRIBUTES: Entry[] = [
  { term: 'data-site-id', text: 'This site’s id (required).' },
  { term: 'data-hash-routing="true"', text: 'The app routes by the URL’s fragment (#/pricing): each fragment route is a page view.' },
  { term: 'data-exclude="/admin/*, /drafts/**"', text: 'Paths where nothing is sent; * matches within a path segment, ** across segments.' },
  { term: 'data-download-extensions="dwg,stl"', text: 'More file types whose links count as downloads.' },
  { term: 'data-include-localhost', text: 'Also count pages on localhost, 127.x and file: (left out by default, so development does not count).' },
  {
    term: 'data-consent-analytics="false"',
    text: 'Start without analytics consent: only strictly necessary data is kept until sgp.consent() says otherwise.',
  },
  { term: 'data-ping-interval="300000"', text: 'How often (ms) an active visitor’s page reports its activity; default 5 minutes.' },
  { term: 'data-api="https://…"', text: 'Where the tag sends events, when this app is reached under another origin (a proxy on your own domain).' },
];

const AUTOMATIC: Entry[] = [
  { term: 'Page views', text: 'Every page, and every route change of a single-page app (pushState, replaceState, back and forward).' },
  { term: 'Engagement', text: 'When a page is left: the time it was visible with the visitor active, and how far down they scrolled.' },
  { term: 'Outbound links', text: 'A click on a link to another site.' },
  { term: 'Downloads', text: `A click on a file link (${DOWNLOAD_EXTENSIONS.join(', ')}) or on any <a download>.` },
  { term: 'Form submissions', text: 'The form’s id, name and where it posts — never what was typed. data-sgp-ignore on a form leaves it out.' },
  { term: 'Tagged clicks', text: 'An element with data-sgp-event="name" sends that event; data-sgp-prop-plan="pro" adds a property.' },
];

/** The tag to paste, how it behaves, and every way to tune it — the tracker guide of this site. */
export default async function SnippetPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireSiteAccess((await params).siteId);
  const origin = await publicOrigin();
  const snippet = trackingSnippet(origin, site.id);
  const extra = await listSiteOrigins(site.id);
  const optOutUrl = site.domain ? `https://${site.domain}/?sgp_opt_out=1` : null;
  return (
    <>
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
      <Card title="What it records by itself" id="automatic">
        <EntryTable caption="What the tag records without code" rows={AUTOMATIC} headers={['What', 'When']} />
        <p className="hint">
          Single-page apps (React, Next.js, Vue, Svelte…) need nothing more (<a href="#guide-spa">more</a>). Events sent as a page is left travel with{' '}
          <code>keepalive</code>, so they arrive even when the click navigates away.
        </p>
      </Card>
      <Card title="Guide" id="guide">
        <TrackerGuide origin={origin} siteId={site.id} domain={site.domain} install={false} />
        <p className="hint">
          The same guide for any site: <a href="/docs/tracker">/docs/tracker</a>.
        </p>
      </Card>
      <Card title="Options" id="attributes">
        <EntryTable caption="Attributes of the script tag" rows={ATTRIBUTES} headers={['Attribute', 'Effect']} code />
      </Card>
      <Card title="Privacy" id="privacy">
        <p>
          The tag keeps a random visitor id and the current visit in the site&apos;s own browser storage — nothing derived from the device, no
          third-party cookie. A visitor whose browser sends Global Privacy Control or Do Not Track is counted without a stored id, city or region; in
          cookieless mode nobody&apos;s browser stores anything, and a visitor is a daily id computed on the server from the site, the IP address and
          the User-Agent (neither is stored). Both are <Link href={`/console/sites/${site.id}/settings/tracking`}>tracking privacy settings</Link>.
        </p>
        <h3>Leave out your own visits</h3>
        {optOutUrl ? (
          <p>
            <a className="button" href={optOutUrl} target="_blank" rel="noreferrer" data-testid="opt-out">
              Exclude this browser from {site.domain}
            </a>{' '}
            <span className="hint">
              Opens your site once with <code>?sgp_opt_out=1</code>: this browser is no longer counted (<code>?sgp_opt_out=0</code> counts it again).
              Or call <code>sgp.optOut()</code> on a page of the site.
            </span>
          </p>
        ) : (
          <p className="hint">
            Give the site a domain to get a one-click link; meanwhile open any page of the site with <code>?sgp_opt_out=1</code>, or call{' '}
            <code>sgp.optOut()</code> there.
          </p>
        )}
        <p className="hint">
          To serve the tag from your own domain, see <a href="#guide-proxy">the guide</a>.
        </p>
      </Card>
    </>
  );
}

function EntryTable({ caption, rows, headers, code }: { caption: string; rows: Entry[]; headers: [string, string]; code?: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(r) => r.term}
      columns={[
        { header: headers[0], cell: (r) => (code ? <code>{r.term}</code> : <strong>{r.term}</strong>), title: true },
        { header: headers[1], cell: (r) => r.text },
      ]}
      empty={null}
    />
  );
}

/** The domain with or without `www.`: the site's origin check accepts both. */
const wwwTwin = (domain: string) => (domain.startsWith('www.') ? domain.slice(4) : `www.${domain}`);
