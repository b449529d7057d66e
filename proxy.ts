import { NextResponse, type NextRequest } from 'next/server';

/**
 * Thin on purpose: it gives console pages a request id. API routes are left out by the matcher:
 * their route declaration sets the request id itself and answers its own CORS preflight
 * (`OPTIONS = preflight([...])`), and a proxy in front of a route costs a large share of its
 * throughput (README, "Rate limits, CORS and key usage": measured with bench `noop.proxied`).
 */
export function proxy(req: NextRequest) {
  const requestId = req.headers.get('x-request-id') ?? crypto.randomUUID();
  const headers = new Headers(req.headers);
  headers.set('x-request-id', requestId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('x-request-id', requestId);
  return res;
}

export const config = {
  matcher: [
    '/((?!api/|sites|_next/|favicon.ico|t.js).*)',
    // The benchmark's probe: the baseline route through the proxy, only when asked for by header.
    { source: '/api/health', has: [{ type: 'header', key: 'x-proxy-probe' }] },
  ],
};
