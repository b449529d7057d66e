import { sessionMeta } from '@/lib/visitors/service';
import { policies } from './auth/policies';
import type { ResponseExtras } from './define-route';
import { routeGroup } from './route-group';

const VISITOR_TAGS = ['Visitor sessions'];

/** §8 session limits: 60 requests/min per client IP and 1,000/min per API key, X-RateLimit-* headers always. */
const VISITOR_RATE_LIMIT = 'visitor' as const;

/** A visitor ingestion route (session start/update/end, track, identify, segment, upload): `policies.visitor`, the session limits. */
export const visitorRoute = routeGroup({ tags: VISITOR_TAGS, auth: policies.visitor, rateLimit: VISITOR_RATE_LIMIT });

/** A visitor read (a session with its events, session lists), server to server: `policies.visitorRead`, the session limits. */
export const visitorReadRoute = routeGroup({ tags: VISITOR_TAGS, auth: policies.visitorRead, rateLimit: VISITOR_RATE_LIMIT });

/**
 * A visitor route's answer: `data` once it is read, with the API version, server time and processing
 * time (from `startedAt`, measured once `data` is ready) added to `meta`.
 */
export async function withSessionMeta<T>(res: ResponseExtras, startedAt: number, data: Promise<T>): Promise<T> {
  const answer = await data;
  res.meta = { ...res.meta, ...sessionMeta(startedAt) };
  return answer;
}
