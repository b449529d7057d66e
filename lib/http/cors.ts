import { isOriginRegistered } from '@/lib/sites/origins';
import type { AnswerHeaders } from './envelope';

/**
 * CORS is granted only on the public browser-tracking routes, and only to an Origin registered
 * for the site the request names (checked by authentication). Credentials are never allowed
 * cross-origin. Every other route sends no CORS headers, so browsers on other origins cannot
 * read its responses.
 */
export const CORS_ALLOWED_HEADERS = 'content-type, x-request-id';
export const CORS_EXPOSED_HEADERS = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after';

export function applyCors(headers: AnswerHeaders, origin: string): void {
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', CORS_EXPOSED_HEADERS);
  headers.append('vary', 'Origin');
}

/**
 * Preflight answer for a browser-tracking route (`export const OPTIONS = preflight(['POST'])`).
 * The preflight carries no body, so it cannot say which site it is for: an Origin registered for
 * some site (its domain or an extra allowed origin) gets the method and headers; any other Origin
 * gets no CORS headers, so the browser does not send the request. The real request is then
 * answered with CORS headers only when its Origin is registered for the site it names. API-key
 * headers are not among the allowed headers: browsers never send keys cross-origin.
 */
export function preflight(methods: string[]) {
  return async (req: Request): Promise<Response> => {
    const origin = req.headers.get('origin');
    const headers = new Headers({ vary: 'Origin' });
    if (origin && (await isOriginRegistered(origin))) {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-allow-methods', methods.join(', '));
      headers.set('access-control-allow-headers', CORS_ALLOWED_HEADERS);
      headers.set('access-control-max-age', '600');
    }
    return new Response(null, { status: 204, headers });
  };
}
