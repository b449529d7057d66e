import type { AuthPolicy } from '@/lib/http/auth';

/**
 * The auth policies of the visitor routes, declared once so the session rate limits (§8: per IP
 * and per key, with X-RateLimit-* headers) attach here for every visitor route.
 *
 * Ingestion (session start/update/end, track, identify, segment, upload): X-SA-API-KEY from a
 * server, or no key from a browser whose Origin is the site's domain (the request names its site_id).
 */
export const visitorAuth = { kind: 'apiKey', headers: ['x-sa-api-key'], browserOrigin: true } as const satisfies AuthPolicy;

/** Reads (a session with its events, session lists): server-to-server only, X-SA-API-KEY. */
export const visitorReadAuth = { kind: 'apiKey', headers: ['x-sa-api-key'] } as const satisfies AuthPolicy;

export const VISITOR_TAGS = ['Visitor sessions'];

/** §8 session limits: 60 requests/min per client IP and 1,000/min per API key, X-RateLimit-* headers always. */
export const VISITOR_RATE_LIMIT = 'visitor' as const;
