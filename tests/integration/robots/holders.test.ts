import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { database, getDb, openDatabase } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { sessionLockHeld } from '@/lib/db/session-locks';
import { thisHolder } from '@/lib/robots/holder';
import { HOLDER_LOCK, findInstance, insertInstance } from '@/lib/robots/instances-repo';
import { claimRobotSlot } from '@/lib/robots/slots';
import { suiteDatabaseUrl } from '@/tests/helpers/databases';
import { createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * A robot browser lives in the process that started it, which holds a session lock while it runs.
 * When that process is gone (crash, kill, restart) its session and lock are gone, and its instances
 * stop counting against the running-robot limits: the next start of the account marks them `error`
 * with a log line, instead of refusing 429 until they expire.
 */
afterEach(() => {
  delete process.env.PLAN_CAPS;
  resetConfig();
});

function oneRobotPerAccount(): void {
  process.env.PLAN_CAPS = JSON.stringify({ basic: { robots_per_account: 1 } });
  resetConfig();
}

/**
 * Another process holding browsers: on Postgres a client of its own on the same database (its own
 * session); on the embedded database, whose one session every process shares, that session.
 * `end()` is the process going away: its connection closes (the embedded database lets the lock go
 * when it closes; here the session releases it).
 */
async function otherHolder(): Promise<{ id: string; end(): Promise<void> }> {
  const id = randomUUID();
  const home = await database();
  if (home.kind === 'postgres') {
    const other = await openDatabase({ kind: 'postgres', url: await suiteDatabaseUrl(), poolMax: 1 });
    await other.holdSessionLock(HOLDER_LOCK, id);
    return { id, end: () => other.close() };
  }
  await home.holdSessionLock(HOLDER_LOCK, id);
  return { id, end: async () => void (await home.sql.query('select pg_advisory_unlock(hashtext($1), hashtext($2))', [HOLDER_LOCK, id])) };
}

/** Whether any session holds the holder lock of `id` (as the claims ask). */
async function lockHeld(id: string): Promise<boolean> {
  const [{ held }] = await rows<{ held: boolean }>(sql`select ${sessionLockHeld(HOLDER_LOCK, sql`${id}`)} as held`, await getDb());
  return held;
}

/** A running instance whose browser `holder` holds (none recorded when null). */
const runningHeldBy = (t: Tenant, holder: string | null) =>
  insertInstance(t.siteId, { userId: t.user.id, name: 'Held', instanceType: 'browser', status: 'running', holderId: holder });

const pending = (t: Tenant) => insertInstance(t.siteId, { userId: t.user.id, name: 'Next', instanceType: 'browser', status: 'pending' });

async function logsOf(siteId: string, id: string): Promise<string[]> {
  const db = await getDb();
  const result = (await db.execute(
    sql`select message from instance_logs where site_id = ${siteId} and instance_id = ${id} order by created_at`,
  )) as unknown as { rows: { message: string }[] };
  return result.rows.map((r) => r.message);
}

/** The start of `nextId` claims its slot here; the instance `lostId` of a gone holder is error, with a log line saying so. */
async function expectSlotTakenFromLost(siteId: string, nextId: string, lostId: string) {
  const claim = await claimRobotSlot(siteId, nextId, ['pending'], 'starting');
  expect(claim.row).toMatchObject({ status: 'starting', holderId: thisHolder() });
  expect(await findInstance(siteId, lostId)).toMatchObject({ status: 'error', expiresAt: null });
  expect(await logsOf(siteId, lostId)).toEqual(['Browser lost: the process holding it is no longer running']);
}

describe('robot browsers of a process that is gone', () => {
  it('no longer count: the start claims its slot and the lost instance becomes error with a log line', async () => {
    oneRobotPerAccount();
    const t = await createTenant();
    const lost = await runningHeldBy(t, randomUUID());
    const next = await pending(t);
    await expectSlotTakenFromLost(t.siteId, next.id, lost.id);
  });

  it('of a live holder still count: 429 and the running instance stays running; once it ends they no longer do', async () => {
    oneRobotPerAccount();
    const t = await createTenant();
    const holder = await otherHolder();
    const held = await runningHeldBy(t, holder.id);
    const next = await pending(t);
    try {
      const refused = await claimRobotSlot(t.siteId, next.id, ['pending'], 'starting').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(429);
      expect(await findInstance(t.siteId, held.id)).toMatchObject({ status: 'running' });
      expect(await findInstance(t.siteId, next.id)).toMatchObject({ status: 'pending' });
    } finally {
      await holder.end();
    }
    await expectSlotTakenFromLost(t.siteId, next.id, held.id);
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
    const othersLost = await runningHeldBy(other, randomUUID());
    const next = await pending(t);
    await expect(claimRobotSlot(t.siteId, next.id, ['pending'], 'starting')).rejects.toMatchObject({ status: 429 });
    expect(await findInstance(t.siteId, unknown.id)).toMatchObject({ status: 'running' });
    expect(await findInstance(other.siteId, othersLost.id)).toMatchObject({ status: 'running' });
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    'of a process killed with SIGKILL no longer count: its session ends, and the next start marks its instance error',
    async () => {
      oneRobotPerAccount();
      const t = await createTenant();
      const first = await pending(t);
      // Node itself with tsx's loader, so the pid killed is the holder's (the tsx CLI would add a parent process).
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/robot-holder-process.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: await suiteDatabaseUrl(),
          DATABASE_POOL_MAX: '2',
          LOG_LEVEL: 'silent',
          HOLD_SITE_ID: t.siteId,
          HOLD_INSTANCE_ID: first.id,
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      try {
        const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
        const holder = line.replace(/^claimed /, '');
        expect(await findInstance(t.siteId, first.id)).toMatchObject({ status: 'starting', holderId: holder });
        const next = await pending(t);
        await expect(claimRobotSlot(t.siteId, next.id, ['pending'], 'starting')).rejects.toMatchObject({ status: 429 });

        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
        // The server notices the closed connection and ends the session: the lock goes with it.
        await vi.waitFor(async () => expect(await lockHeld(holder)).toBe(false), { timeout: 10_000, interval: 50 });
        const claim = await claimRobotSlot(t.siteId, next.id, ['pending'], 'starting');
        expect(claim.row).toMatchObject({ status: 'starting', holderId: thisHolder() });
        expect(await findInstance(t.siteId, first.id)).toMatchObject({ status: 'error', expiresAt: null });
        expect(await logsOf(t.siteId, first.id)).toEqual(['Browser lost: the process holding it is no longer running']);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
    120_000,
  );

  it.runIf(process.env.TEST_DB === 'postgres')(
    "this process's lock is taken again when its connection drops (the server ended the session)",
    async () => {
      const t = await createTenant();
      await claimRobotSlot(t.siteId, (await pending(t)).id, ['pending'], 'starting');
      const holderPid = async () => {
        const [row] = await rows<{ pid: number }>(
          sql`select pid from pg_locks where locktype = 'advisory' and granted and objsubid = 2
                and database = (select oid from pg_database where datname = current_database())
                and classid = hashtext(${HOLDER_LOCK})::oid and objid = hashtext(${thisHolder()})::oid`,
          await getDb(),
        );
        return row?.pid;
      };
      const before = await holderPid();
      expect(before).toBeDefined();
      await rows(sql`select pg_terminate_backend(${before}::int)`, await getDb());
      await vi.waitFor(
        async () => {
          const after = await holderPid();
          expect(after).toBeDefined();
          expect(after).not.toBe(before);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(await lockHeld(thisHolder())).toBe(true);
    },
    60_000,
  );
});
