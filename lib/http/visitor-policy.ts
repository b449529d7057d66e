/** The visitor routes' tag and limits (their auth: `policies.visitor` and `policies.visitorRead`). */
export const VISITOR_TAGS = ['Visitor sessions'];

/** §8 session limits: 60 requests/min per client IP and 1,000/min per API key, X-RateLimit-* headers always. */
export const VISITOR_RATE_LIMIT = 'visitor' as const;
