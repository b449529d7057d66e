import type { ReactNode } from 'react';
import { trackingSnippet } from '@/components/tracking-snippet';
import { CopyButton } from './copy-button';

interface Step {
  id: string;
  title: string;
  text: ReactNode;
  code: string;
  copy: string;
  after?: ReactNode;
}

/**
 * How to put the tracking tag to work, from installing it to serving it from the owner's own
 * domain: the same guide on a site's Tracking snippet page and at /docs/tracker. Every snippet is
 * written with this app's public origin and the site's id, and has a copy button. Only what the
 * tag supports (lib/visitors/snippet.ts) is shown.
 */
export function TrackerGuide({
  origin,
  siteId,
  domain,
  level = 3,
  install = true,
}: {
  origin: string;
  siteId: string;
  domain?: string | null;
  level?: 2 | 3;
  /** False where the page shows the tag above the guide already. */
  install?: boolean;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const own = `https://${domain ?? 'www.your-shop.example'}`;
  const tag = (attrs: string) => `<script async src="${origin}/t.js" data-site-id="${siteId}" ${attrs}></script>`;
  const steps: Step[] = [
    {
      id: 'install',
      copy: 'Copy the tag',
      title: 'Install',
      text: (
        <>
          Paste the tag into every page of the site, just before <code>&lt;/body&gt;</code> (or once in the layout all pages share). It loads without
          holding the page up and counts page views, time on page, outbound links, downloads and form submissions by itself.
        </>
      ),
      code: trackingSnippet(origin, siteId),
    },
    {
      id: 'spa',
      copy: 'Copy the tag for fragment routes',
      title: 'Single-page apps',
      text: (
        <>
          Apps that change the address with the History API (React, Next.js, Vue, Svelte, Angular routers) need nothing more: every route change is a
          page view, and the time spent on a route is reported when it is left. An app that routes by the address&apos;s fragment (
          <code>/#/pricing</code>) adds <code>data-hash-routing</code>:
        </>
      ),
      code: tag('data-hash-routing="true"'),
    },
    {
      id: 'goals',
      copy: 'Copy the examples',
      title: 'Goals and conversions',
      text: (
        <>
          A conversion is a goal reached — a purchase, a sign-up, a booked call. Send it when it happens: it counts in the Overview&apos;s
          Conversions, on the visit and on its lead. Any other event of your own is a name and its properties.
        </>
      ),
      code: `sgp.track({ event_type: 'conversion', event_name: 'purchase', properties: { value: 49, currency: 'EUR' } });
sgp.track('signup_clicked', { plan: 'pro' });

<!-- Without code: a click on this element sends "pricing_cta" with plan=pro -->
<button data-sgp-event="pricing_cta" data-sgp-prop-plan="pro">Start free trial</button>`,
      after: (
        <>
          Calls made before the tag has loaded are kept:{' '}
          <code>window.sgp = window.sgp || []; sgp.push([&apos;track&apos;, &apos;signup&apos;]);</code>
        </>
      ),
    },
    {
      id: 'identify',
      copy: 'Copy the call',
      title: 'Identify a visitor',
      text: (
        <>
          When visitors say who they are (sign-up, checkout, newsletter), tie the visit to them: it becomes a lead with that address, listed under
          Leads with its visits. Email first, then first and last name if you have them.
        </>
      ),
      code: `sgp.identify('ada@example.com', 'Ada', 'Lovelace');`,
      after: (
        <>
          <code>sgp.end()</code> closes the visit when someone logs out, so the next person on the same browser starts a visit of their own.
        </>
      ),
    },
    {
      id: 'consent',
      copy: 'Copy the consent example',
      title: 'Consent',
      text: (
        <>
          Where analytics need the visitor&apos;s consent first, load the tag without it: until <code>sgp.consent</code> says yes, only strictly
          necessary data is kept. Call it from your consent banner.
        </>
      ),
      code: `${tag('data-consent-analytics="false"')}

<script>
  // the visitor accepted analytics
  sgp.consent({ analytics: true });
  // …or declined (also after accepting)
  sgp.consent({ analytics: false });
</script>`,
      after: (
        <>
          Browsers that send Global Privacy Control or Do Not Track are counted without a stored id when the site honours them (its tracking privacy
          settings, on by default).
        </>
      ),
    },
    {
      id: 'proxy',
      copy: 'Copy the proxy setup',
      title: 'Serve the tag from your own domain',
      text: (
        <>
          Blockers that stop third-party hosts let a tag from the site&apos;s own domain through. Forward <code>/sgp/t.js</code> and{' '}
          <code>/sgp/api/visitors/</code> of your domain to this app — with nginx, for example — and load the tag from there; <code>data-api</code>{' '}
          tells it to send events the same way. The visitor&apos;s address travels in <code>X-Forwarded-For</code>, so countries stay right (a
          self-hosted app counts this hop in <code>TRUST_PROXY</code>).
        </>
      ),
      code: `location = /sgp/t.js {
  proxy_pass ${origin}/t.js;
}
location /sgp/api/visitors/ {
  proxy_pass ${origin}/api/visitors/;
  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
}

<script async src="${own}/sgp/t.js" data-site-id="${siteId}" data-api="${own}/sgp"></script>`,
    },
  ];
  const shown = install ? steps : steps.filter((s) => s.id !== 'install');
  return (
    <div className="tracker-guide">
      <nav aria-label="Tracker guide" className="guide-toc">
        {shown.map((s) => (
          <a key={s.id} href={`#guide-${s.id}`}>
            {s.title}
          </a>
        ))}
      </nav>
      {shown.map((s) => (
        <section key={s.id} id={`guide-${s.id}`} aria-labelledby={`guide-${s.id}-heading`}>
          <Heading id={`guide-${s.id}-heading`}>{s.title}</Heading>
          <p>{s.text}</p>
          <pre className="code" data-testid={`guide-${s.id}`}>
            <code>{s.code}</code>
          </pre>
          <CopyButton text={s.code} label={s.copy} small />
          {s.after && <p className="hint">{s.after}</p>}
        </section>
      ))}
    </div>
  );
}
