import { ApiError } from '@/lib/core/errors';

/** §7: a missing or expired session; `details` names it. */
export const sessionNotFound = (sessionId: string, siteId: string) =>
  new ApiError('session_not_found', 'Session not found or expired', { session_id: sessionId, site_id: siteId });

/** A closed session stays readable but takes no more activity; the client starts a new one. */
export const sessionEnded = (sessionId: string, siteId: string) =>
  new ApiError('CONFLICT', 'Session has ended; start a new session', { session_id: sessionId, site_id: siteId, status: 'closed' });

export const eventLimitReached = (sessionId: string, siteId: string, max: number) =>
  new ApiError('CONFLICT', `Session already holds the maximum of ${max} events; start a new session`, {
    session_id: sessionId,
    site_id: siteId,
    max_events: max,
  });
