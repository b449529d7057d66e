/**
 * CORS is granted only on the public browser-tracking routes, and only to an Origin registered
 * for the site the request names (checked by authentication). Credentials are never allowed
 * cross-origin. Every other route sends no CORS headers, so browsers on other origins cannot
 * read its responses.
 */
export const CORS_ALLOWED_HEADERS = 'content-type, x-request-id';
export const CORS_EXPOSED_HEADERS = 'x-request-id';

export function applyCors(headers: Headers, origin: string): void {
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', CORS_EXPOSED_HEADERS);
  headers.append('vary', 'Origin');
}

/**
 * Preflight answer for a browser-tracking route. The preflight carries no body, so it cannot
 * say which site it is for: it allows the method and headers, and the real request is then
 * answered with CORS headers only when its Origin is registered for its site.
 */
export function preflight(methods: string[]) {
  return (req: Request): Response => {
    const origin = req.headers.get('origin');
    const headers = new Headers({ vary: 'Origin' });
    if (origin) {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-allow-methods', methods.join(', '));
      headers.set('access-control-allow-headers', CORS_ALLOWED_HEADERS);
      headers.set('access-control-max-age', '600');
    }
    return new Response(null, { status: 204, headers });
  };
}
