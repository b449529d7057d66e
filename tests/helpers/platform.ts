import { sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { POST as addRecipientRoute } from '@/app/api/sites/[site_id]/email-recipients/route';
import { POST as createAppRoute } from '@/app/api/sites/[site_id]/platform-apps/route';
import { POST as createKeyRoute } from '@/app/api/sites/[site_id]/platform-keys/route';
import { CAPABILITIES, type Capability } from '@/lib/core/principal';
import { getDb } from '@/lib/db/client';
import { call, type Tenant } from './harness';
import { suiteTenants } from './tenants';

export const platformAuth = (key: string) => ({ authorization: `Bearer ${key}` });

/** POST /api/sites/{site_id}/email-recipients as the site's owner: adds `email` as a test recipient and mails it a code. */
export const addTestRecipient = (t: Pick<Tenant, 'user' | 'siteId'>, email: string) =>
  call(addRecipientRoute, {
    method: 'POST',
    path: `/api/sites/${t.siteId}/email-recipients`,
    params: { site_id: t.siteId },
    headers: t.user.auth,
    body: { email },
  });

export async function createApp(
  t: Pick<Tenant, 'user' | 'siteId'>,
  name = 'Generated app',
): Promise<{ id: string; short_id: string; schema: string }> {
  const res = await call(createAppRoute, {
    method: 'POST',
    path: `/api/sites/${t.siteId}/platform-apps`,
    params: { site_id: t.siteId },
    headers: t.user.auth,
    body: { name },
  });
  if (res.status !== 201) throw new Error(`app creation failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function createPlatformKey(
  t: Pick<Tenant, 'user' | 'siteId'>,
  appId: string,
  capabilities: readonly Capability[] = CAPABILITIES,
): Promise<{ id: string; platformKey: string }> {
  const res = await call(createKeyRoute, {
    method: 'POST',
    path: `/api/sites/${t.siteId}/platform-keys`,
    params: { site_id: t.siteId },
    headers: t.user.auth,
    body: { app_id: appId, name: 'test platform key', capabilities },
  });
  if (res.status !== 201) throw new Error(`platform key creation failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, platformKey: res.body.data.platformKey };
}

/** An app of the tenant's site with a key holding every capability, a revoked and an expired key. */
export interface PlatformFixture {
  appId: string;
  appSchema: string;
  key: string;
  keyId: string;
  revokedKey: string;
  expiredKey: string;
  /** A key of the same app with every capability except these (memoized). */
  keyWithout: (needed: readonly Capability[]) => Promise<string>;
}

export async function createPlatformFixture(t: Pick<Tenant, 'user' | 'siteId'>): Promise<PlatformFixture> {
  const app = await createApp(t);
  const [all, revoked, expired] = await Promise.all([createPlatformKey(t, app.id), createPlatformKey(t, app.id), createPlatformKey(t, app.id)]);
  const db = await getDb();
  await db.execute(sql`update platform_keys set revoked_at = now() where id = ${revoked.id}`);
  await db.execute(sql`update platform_keys set expires_at = now() - interval '1 second' where id = ${expired.id}`);
  const without = new Map<string, Promise<string>>();
  return {
    appId: app.id,
    appSchema: app.schema,
    key: all.platformKey,
    keyId: all.id,
    revokedKey: revoked.platformKey,
    expiredKey: expired.platformKey,
    keyWithout(needed) {
      const id = [...needed].sort().join(',');
      if (!without.has(id)) {
        without.set(
          id,
          createPlatformKey(
            t,
            app.id,
            CAPABILITIES.filter((c) => !needed.includes(c)),
          ).then((k) => k.platformKey),
        );
      }
      return without.get(id)!;
    },
  };
}

/**
 * Two tenants with a platform app (and its keys) each, for the tests of the calling scope: created
 * before them, filled in place (usable from the tests, and any later `beforeAll`, on).
 */
export function suitePlatformApps(): { mine: Tenant; other: Tenant; app: PlatformFixture; otherApp: PlatformFixture } {
  const [mine, other] = suiteTenants(2);
  const [app, otherApp] = [{} as PlatformFixture, {} as PlatformFixture];
  beforeAll(async () => {
    const [a, b] = await Promise.all([createPlatformFixture(mine), createPlatformFixture(other)]);
    Object.assign(app, a);
    Object.assign(otherApp, b);
  });
  return { mine, other, app, otherApp };
}
