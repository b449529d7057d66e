import { ApiError } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';
import { readClickToken, readOpenToken } from './tracking';
import { recordClick, recordOpen } from './tracking-repo';

/**
 * What the public tracking links do. An open pixel's token that is not ours (altered, forged,
 * another server's secret) is 404; so is a click link's, which then redirects nowhere. A valid
 * click link redirects to its (http/https) target even when its message is gone: the target was
 * signed by this server, so the redirect cannot be turned to another address.
 */
export async function trackOpen(token: string): Promise<void> {
  const m = readOpenToken(token);
  if (!m || !isUuid(m.siteId) || !isUuid(m.messageId)) throw new ApiError('NOT_FOUND', 'Tracking link not found');
  await recordOpen(m.siteId, m.messageId);
}

/** The target a click link sends its reader to, its click recorded. */
export async function trackClick(token: string): Promise<string> {
  const m = readClickToken(token);
  if (!m || !isUuid(m.siteId) || !isUuid(m.messageId)) throw new ApiError('NOT_FOUND', 'Tracking link not found');
  await recordClick(m.siteId, m.messageId);
  return m.target;
}
