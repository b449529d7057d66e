import { randomInt } from 'node:crypto';
import { currentDate, now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { guardedFetch } from '@/lib/net/guard';
import { finishAttempt, type AttemptOutcome, type ClaimedDelivery } from './repo';
import { decryptSecret, signatureHeaders } from './secret';

/**
 * One delivery attempt: the event as `{id, type, created_at, site_id, data}`, POSTed through the
 * SSRF guard (no redirects followed, WEBHOOK_TIMEOUT_MS, response read up to
 * WEBHOOK_MAX_RESPONSE_BYTES), signed per Standard Webhooks with `webhook-id` = the event id (the
 * same on every retry and redelivery, so receivers can drop duplicates). A 2xx answer delivers;
 * anything else (another status, a refused or unreachable address, a timeout) is retried on the
 * schedule until it runs out.
 */
export function payloadOf(claimed: ClaimedDelivery): string {
  const { event } = claimed;
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), site_id: event.siteId, data: event.data });
}

/** The delay before retry number `retry` (1-based), with ±20 % jitter; undefined when none is left. */
export function retryDelayMs(retry: number, delays = config().WEBHOOK_RETRY_DELAYS): number | undefined {
  const base = delays[retry - 1];
  if (base === undefined) return undefined;
  const ms = base * 1000;
  return Math.round(ms * 0.8 + (ms * 0.4 * randomInt(0, 1_000_001)) / 1_000_000);
}

function secretsOf(claimed: ClaimedDelivery): string[] {
  const { endpoint } = claimed;
  const secrets = [decryptSecret(endpoint.secretEncrypted)];
  if (endpoint.previousSecretEncrypted && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now()) {
    secrets.push(decryptSecret(endpoint.previousSecretEncrypted));
  }
  return secrets;
}

export async function attemptDelivery(claimed: ClaimedDelivery): Promise<AttemptOutcome> {
  const c = config();
  const body = payloadOf(claimed);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'SiteGrowthPlatform-Webhooks/1.0',
    ...signatureHeaders(secretsOf(claimed), claimed.event.id, Math.floor(now() / 1000), body),
  };
  const startedAt = currentDate();
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let responseBody: string | null = null;
  try {
    const res = await guardedFetch(claimed.endpoint.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: c.WEBHOOK_TIMEOUT_MS,
      maxBytes: c.WEBHOOK_MAX_RESPONSE_BYTES,
      maxRedirects: 0,
    });
    statusCode = res.status;
    responseBody = res.body.toString('utf8').replace(/\u0000/g, '');
    if (res.status < 200 || res.status >= 300) error = `answered ${res.status}`;
  } catch (e) {
    error = (e as Error).message.slice(0, 500);
  }
  const durationMs = Math.round(performance.now() - started);
  let outcome: AttemptOutcome;
  if (error === null) outcome = { status: 'succeeded' };
  else {
    const delay = retryDelayMs(claimed.delivery.attempts + 1);
    outcome = delay === undefined ? { status: 'failed' } : { status: 'pending', nextAttemptAt: new Date(now() + delay) };
  }
  await finishAttempt(claimed, { startedAt, durationMs, statusCode, error, responseBody }, outcome);
  return outcome;
}
