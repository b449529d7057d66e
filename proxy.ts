import { NextResponse, type NextRequest } from 'next/server';

/**
 * Thin on purpose: it gives console pages a request id. API routes are left out by the matcher:
 * their route declaration sets the request id itself and answers its own CORS preflight
 * (`OPTIONS = preflight([...])`), and a proxy in front of a route costs a large share of its
 * throughput (README, "Rate limits, CORS and key usage": measured with bench `noop.proxied`).
 */
export function proxy(req: NextRequest) {
  if (crossOriginAction(req)) return new NextResponse('Forbidden: a form of this console may only be posted from its own pages.', { status: 403 });
  const requestId = req.headers.get('x-request-id') ?? crypto.randomUUID();
  const headers = new Headers(req.headers);
  headers.set('x-request-id', requestId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('x-request-id', requestId);
  if (req.nextUrl.pathname.startsWith('/share/')) {
    // A shared dashboard: never indexed, and its secret URL never sent on as a Referer.
    res.headers.set('x-robots-tag', 'noindex, nofollow');
    res.headers.set('referrer-policy', 'no-referrer');
    res.headers.set('cache-control', 'private, no-store');
  }
  return res;
}

/**
 * A post that may run a server action (Next's `Next-Action` header, or a form's multipart post:
 * the way a page's form is posted without JavaScript) from a page of another origin. Next refuses
 * it too, but by throwing: a logged 500. It is a refusal (403), answered here before Next
 * decodes anything. A post without Origin is a non-browser client's (no ambient cookies to abuse), as Next holds.
 */
function crossOriginAction(req: NextRequest): boolean {
  if (req.method !== 'POST') return false;
  if (!req.headers.has('next-action') && !req.headers.get('content-type')?.startsWith('multipart/form-data')) return false;
  const origin = req.headers.get('origin');
  if (origin === null) return false;
  const host = (req.headers.get('x-forwarded-host') ?? req.headers.get('host'))?.split(',')[0].trim();
  try {
    return origin === 'null' || new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export const config = {
  matcher: [
    '/((?!api/|sites|_next/|favicon.ico|t.js).*)',
    // The benchmark's probe: the baseline route through the proxy, only when asked for by header.
    { source: '/api/health', has: [{ type: 'header', key: 'x-proxy-probe' }] },
  ],
};
