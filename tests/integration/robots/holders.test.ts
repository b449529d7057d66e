import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { findInstance, insertInstance } from '@/lib/instances/repo';
import { HOLDER_STALE_SECONDS, thisHolder } from '@/lib/robots/holder';
import { claimRobotSlot } from '@/lib/robots/slots';
import { createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * A robot browser lives in the process that started it. When that process is gone (crash,
 * restart), its instances stop counting against the running-robot limits: the next start of the
 * account marks them `error` with a log line, instead of refusing 429 until they expire.
 */
afterEach(() => {
  delete process.env.PLAN_CAPS;
  resetConfig();
});

function oneRobotPerAccount(): void {
  process.env.PLAN_CAPS = JSON.stringify({ basic: { robots_per_account: 1 } });
  resetConfig();
}

/** A running instance held by `holder`, last seen `secondsAgo` (no holder row when undefined). */
async function runningHeldBy(t: Tenant, holder: string | null, secondsAgo?: number) {
  const db = await getDb();
  if (holder && secondsAgo !== undefined)
    await db.execute(sql`insert into robot_holders (id, seen_at) values (${holder}, now() - make_interval(secs => ${secondsAgo}))`);
  return insertInstance(t.siteId, { userId: t.user.id, name: 'Held', instanceType: 'browser', status: 'running', holderId: holder });
}

const pending = (t: Tenant) => insertInstance(t.siteId, { userId: t.user.id, name: 'Next', instanceType: 'browser', status: 'pending' });

async function logsOf(siteId: string, id: string): Promise<string[]> {
  const db = await getDb();
  const result = (await db.execute(
    sql`select message from instance_logs where site_id = ${siteId} and instance_id = ${id} order by created_at`,
  )) as unknown as { rows: { message: string }[] };
  return result.rows.map((r) => r.message);
}

describe('robot browsers of a process that is gone', () => {
  it('no longer count: the start claims its slot and the lost instance becomes error with a log line', async () => {
    oneRobotPerAccount();
    const t = await createTenant();
    const lost = await runningHeldBy(t, randomUUID(), HOLDER_STALE_SECONDS + 60);
    const next = await pending(t);
    const claim = await claimRobotSlot(t.siteId, next.id, ['pending'], 'starting');
    expect(claim.row).toMatchObject({ status: 'starting', holderId: thisHolder() });
    expect(await findInstance(t.siteId, lost.id)).toMatchObject({ status: 'error', expiresAt: null });
    expect(await logsOf(t.siteId, lost.id)).toEqual(['Browser lost: the process holding it is no longer running']);
  });

  it('of a holder seen recently still count: 429 and the running instance stays running', async () => {
    oneRobotPerAccount();
    const t = await createTenant();
    const held = await runningHeldBy(t, randomUUID(), 5);
    const next = await pending(t);
    const refused = await claimRobotSlot(t.siteId, next.id, ['pending'], 'starting').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect(await findInstance(t.siteId, held.id)).toMatchObject({ status: 'running' });
    expect(await findInstance(t.siteId, next.id)).toMatchObject({ status: 'pending' });
  });

  it('this process is a live holder: its own running instances count', async () => {
    oneRobotPerAccount();
    const t = await createTenant();
    const first = await pending(t);
    await claimRobotSlot(t.siteId, first.id, ['pending'], 'starting');
    const second = await pending(t);
    await expect(claimRobotSlot(t.siteId, second.id, ['pending'], 'starting')).rejects.toMatchObject({ status: 429 });
    expect(await findInstance(t.siteId, first.id)).toMatchObject({ status: 'starting' });
  });

  it('an instance without a recorded holder keeps counting; another account is not touched', async () => {
    oneRobotPerAccount();
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const unknown = await runningHeldBy(t, null);
    const othersLost = await runningHeldBy(other, randomUUID(), HOLDER_STALE_SECONDS + 60);
    const next = await pending(t);
    await expect(claimRobotSlot(t.siteId, next.id, ['pending'], 'starting')).rejects.toMatchObject({ status: 429 });
    expect(await findInstance(t.siteId, unknown.id)).toMatchObject({ status: 'running' });
    expect(await findInstance(other.siteId, othersLost.id)).toMatchObject({ status: 'running' });
  });
});
