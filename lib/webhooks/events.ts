/** The event types an endpoint may subscribe to (the outbox that writes them: ./outbox-repo.ts). */
export const EVENT_TYPES = ['workflow.completed', 'workflow.failed', 'workflow.cancelled', 'lead.created', 'lead.updated', 'session.ended'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent only to the endpoint it tests (POST /api/webhooks/{id}/ping); never subscribed to. */
export const PING_EVENT = 'webhook.ping';
