import { config } from '@/lib/core/config';
import { lockedTransaction } from '@/lib/db/lock';
import { accountRobotsFull, siteRobotsFull } from '@/lib/providers/robots/limits';
import { accountCap } from '@/lib/sites/caps';
import { siteOwner } from '@/lib/sites/service';
import { holdBrowsers, thisHolder } from './holder';
import { insertLog } from './instance-logs-repo';
import type { InstanceStatus } from './instance-schema';
import { countBrowserHolders, releaseLostBrowsers, updateInstanceRow, type InstanceRow } from './instances-repo';

/**
 * The running-robot limits as a database rule: a start (or resume) claims its instance's working
 * status only while the site holds fewer than ROBOTS_MAX_PER_SITE browsers and its account fewer
 * than its plan's robots_per_account. The count and the claim are one transaction under the
 * account's cap lock (`lockedTransaction`), so starts in parallel — of this process, of the
 * worker, of other instances of the app, each with browsers of its own — never pass it together.
 * The claim records this process as the instance's holder; instances whose holder is gone — its
 * lock went with its database session (./holder.ts) — no longer count: a claim first marks them
 * `error`, as lost browsers.
 */

export interface RobotAccount {
  id: string;
  limit: number;
}

/** The account a site's robots count against, and how many its plan lets run at once. */
export async function robotAccountOf(siteId: string): Promise<RobotAccount> {
  const ownerId = await siteOwner(siteId);
  return { id: ownerId, limit: (await accountCap(ownerId, 'robots_per_account')).limit };
}

/**
 * Moves the instance from one of `from` into `via` (the start's working status) within the
 * limits; 429 RATE_LIMITED beyond them (status unchanged). Answers the claimed row (undefined
 * when its status was no longer one of `from`) and the account.
 */
export async function claimRobotSlot(
  siteId: string,
  id: string,
  from: readonly InstanceStatus[],
  via: InstanceStatus,
): Promise<{ row: InstanceRow | undefined; account: RobotAccount }> {
  const account = await robotAccountOf(siteId);
  const perSite = config().ROBOTS_MAX_PER_SITE;
  await holdBrowsers();
  await releaseLost(account.id);
  const row = await lockedTransaction([`cap:robots_per_account:${account.id}`], async (tx) => {
    const held = await countBrowserHolders(account.id, siteId, tx);
    if (held.site >= perSite) throw siteRobotsFull(perSite);
    if (held.account >= account.limit) throw accountRobotsFull(account.limit);
    return updateInstanceRow(siteId, id, { status: via, holderId: thisHolder() }, from, tx);
  });
  return { row, account };
}

/** The account's instances whose holder is gone become `error`, each with a log line saying why. */
async function releaseLost(accountId: string): Promise<void> {
  for (const lost of await releaseLostBrowsers(accountId))
    await insertLog(lost.siteId, lost.id, {
      logType: 'error',
      level: 'error',
      message: 'Browser lost: the process holding it is no longer running',
    });
}
