import { ApiError } from '@/lib/core/errors';
import type { ChangeEvent } from '@/lib/webhooks/schema';
import { activeSubscriptions, saveSubscription } from '@/lib/webhooks/service';
import { catalogEntry } from './catalog';
import { insertWebhookEvent } from './repo';
import { startWorkflow } from './service';

/**
 * Inbound database change events (POST /api/workflow/webhook) and the subscriptions that turn
 * them into workflow runs. The subscriptions are stored by lib/webhooks; which workflow they may
 * start, and starting it, is the catalog's business.
 */

/** Subscribes a catalog workflow to change events; the workflow that records every event itself cannot be subscribed. */
export async function createSubscription(siteId: string, input: Parameters<typeof saveSubscription>[1]) {
  const entry = catalogEntry(input.workflow);
  if (!entry) throw new ApiError('INVALID_REQUEST', `Unknown workflow: ${input.workflow}`);
  // Starting it from a subscription would record the event twice.
  if (entry.recordsChangeEvents)
    throw new ApiError('INVALID_REQUEST', `The ${entry.name} workflow records every inbound event already; subscribe another workflow`);
  return saveSubscription(siteId, { ...input, workflow: entry.name });
}

/** Stores an inbound change event for the run that records it (the `recordWebhookEvent` activity). */
export const recordWebhookEvent = insertWebhookEvent;

const sameSite = (value: unknown, siteId: string) =>
  value === undefined || value === null || (typeof value === 'string' && value.toLowerCase() === siteId);

/**
 * An inbound database change event: refused when its record (or old record) names another site;
 * recorded by a run of the catalog workflow that records change events; then every active
 * subscription of the site for that table and change type starts its workflow, with a body of the
 * subscription's fixed `input`, the mapped record fields and the site id. A run that cannot start
 * (its body does not fit the workflow, the site's running cap) is reported per subscription; the
 * others still start.
 */
export async function receiveChangeEvent(siteId: string, event: ChangeEvent) {
  if (!sameSite(event.record?.site_id, siteId) || !sameSite(event.old_record?.site_id, siteId)) {
    throw new ApiError('FORBIDDEN', 'The changed record belongs to another site');
  }
  const recorded = await startWorkflow(siteId, 'webhook', { ...event, site_id: siteId }, null);
  const dispatched: { subscription_id: string; workflow: string; workflowId?: string; error?: { code: string; message: string } }[] = [];
  if (event.type && event.table) {
    const row = event.record ?? event.old_record ?? {};
    for (const sub of await activeSubscriptions(siteId, event.table, event.type)) {
      const body: Record<string, unknown> = { ...sub.input };
      for (const [field, column] of Object.entries(sub.recordFields)) if (row[column] !== undefined) body[field] = row[column];
      body.site_id = siteId;
      try {
        const run = await startWorkflow(siteId, sub.workflow, body, null);
        dispatched.push({ subscription_id: sub.id, workflow: sub.workflow, workflowId: run.workflowId });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        dispatched.push({ subscription_id: sub.id, workflow: sub.workflow, error: { code: error.code, message: error.message } });
      }
    }
  }
  return { async: true as const, event_workflow_id: recorded.workflowId, dispatched };
}
