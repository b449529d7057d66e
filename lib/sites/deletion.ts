import { currentDate } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { fileStorage } from '@/lib/providers/storage';
import { deleteSiteRows, getSite } from './repo';
import type { DeletedSite, Site } from './schema';

function checkConfirmation(site: Site, confirm: string): void {
  if (confirm !== site.name) {
    throw new ApiError('INVALID_REQUEST', "To delete the site, set confirm to the site's name exactly as it is shown", {
      issues: [{ path: 'body.confirm', message: `Must be the site's name, "${site.name}"` }],
    });
  }
}

/**
 * Deletes a site and everything it holds. In order: the typed confirmation (the site's name) is
 * checked; RUNNING workflow runs are terminated through the engine; the site row is deleted in one
 * transaction, taking every table with a `site_id` with it (`on delete cascade`: keys — refused from
 * the next request —, usage, commands, visitors, sessions, events, leads, segments, requirements,
 * origins, conversations, workflow runs…); then its uploaded files are removed from storage.
 * A command an agent is still running finds its row gone at its next status check and stops.
 * `terminateRuns` is the workflow engine's (`terminateSiteRuns` of lib/workflows/service.ts), passed
 * by the entry: the engine's runs live above this domain (and, on Temporal, outside our database).
 */
export async function deleteSite(siteId: string, confirm: string, terminateRuns: (siteId: string) => Promise<number>): Promise<DeletedSite> {
  checkConfirmation(found(await getSite(siteId), 'Site'), confirm);
  const terminated = await terminateRuns(siteId);
  const deleted = found(await deleteSiteRows(siteId, (site) => checkConfirmation(site, confirm)), 'Site');
  const storage = deleted.storageKeys.length ? fileStorage() : undefined;
  let files = 0;
  for (const key of deleted.storageKeys) {
    try {
      await storage!.remove(key);
      files++;
    } catch (error) {
      // The rows are gone; a file the storage could not remove now is logged (by site, never by name) for cleanup.
      log.error('could not remove an uploaded file of a deleted site', { site_id: siteId, ...errorFields(error) });
    }
  }
  return {
    id: deleted.site.id,
    name: deleted.site.name,
    deleted_at: currentDate().toISOString(),
    removed: { ...deleted.removed, workflow_runs_terminated: terminated, files },
  };
}
