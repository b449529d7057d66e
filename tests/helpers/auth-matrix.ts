import { expect, it } from 'vitest';
import { generateApiKey, generatePlatformKey } from '@/lib/auth/api-key-format';
import type { Capability } from '@/lib/core/principal';
import type { CallResult, Tenant } from './harness';
import type { PlatformFixture } from './platform';

/**
 * Operations that end the session they are called with (sign-out). Suites that share one session
 * across operations call these with a session of their own.
 */
export const ENDS_SESSION = new Set(['DELETE /api/auth/token']);

export type KeyPresenter = (key: string) => Record<string, string>;
export const presenters = {
  xApiKey: (key: string) => ({ 'x-api-key': key }),
  xSaApiKey: (key: string) => ({ 'x-sa-api-key': key }),
  bearer: (key: string) => ({ authorization: `Bearer ${key}` }),
} satisfies Record<string, KeyPresenter>;

export interface AuthMatrixOptions {
  /** The caller's tenant and a second, unrelated one. Read lazily (created in beforeAll). */
  tenants: () => { mine: Tenant; other: Tenant };
  present: KeyPresenter;
  /** Performs an otherwise valid request with these headers, naming this site. */
  send: (headers: Record<string, string>, siteId: string) => Promise<CallResult>;
  /** The route needs the write scope. */
  write: boolean;
  /** The request names a site (path, query or body), so foreign sites can be tried. */
  namesSite?: boolean;
  /** Asserts the valid request's answer; default: a 2xx `{success: true}` envelope. */
  accepted?: (res: CallResult) => void;
}

function expectError(res: CallResult, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String), request_id: expect.any(String) } });
}

/**
 * The shared security cases every API-key route must pass: no key, malformed, unknown, revoked,
 * expired, a session token instead of a key, read-only key on a write route, another site's key,
 * another site's `site_id`.
 */
export function authMatrix(o: AuthMatrixOptions): void {
  const namesSite = o.namesSite ?? true;
  it('refuses a request without a key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send({}, mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses a malformed key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(o.present('not-a-key'), mine.siteId), 401, 'UNAUTHORIZED');
    expectError(await o.send(o.present(mine.key.slice(0, -1) + (mine.key.endsWith('A') ? 'B' : 'A')), mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses an unknown, well-formed key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(o.present(generateApiKey('key')), mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses a revoked key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(o.present(mine.revokedKey), mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses an expired key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(o.present(mine.expiredKey), mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses a session token in place of an API key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(o.present(mine.user.token), mine.siteId), 401, 'UNAUTHORIZED');
  });
  if (o.write) {
    it('refuses a read-only key on a write route (403)', async () => {
      const { mine } = o.tenants();
      expectError(await o.send(o.present(mine.readKey), mine.siteId), 403, 'FORBIDDEN');
    });
  }
  if (namesSite) {
    it("refuses another site's key for this site (403)", async () => {
      const { mine, other } = o.tenants();
      expectError(await o.send(o.present(other.key), mine.siteId), 403, 'FORBIDDEN');
    });
    it("refuses this key naming another site's site_id (403)", async () => {
      const { mine, other } = o.tenants();
      expectError(await o.send(o.present(mine.key), other.siteId), 403, 'FORBIDDEN');
    });
  }
  it('accepts a valid key', async () => {
    const { mine } = o.tenants();
    const res = await o.send(o.present(mine.key), mine.siteId);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    if (o.accepted) o.accepted(res);
    else expect(res.body.success).toBe(true);
  });
}

export interface SessionMatrixOptions {
  /** The caller's tenant and a second, unrelated one (another user). Read lazily. */
  tenants: () => { mine: Tenant; other: Tenant };
  /** Performs an otherwise valid request with these headers, naming this site. */
  send: (headers: Record<string, string>, siteId: string) => Promise<CallResult>;
  /** The request names a site (path, query or body), so another user's site can be tried. */
  namesSite?: boolean;
  /** Presenters of the API-key headers the route also accepts (routes open to a key or the owner's session). */
  keyPresenters?: KeyPresenter[];
  /** Checks the valid answer when it is not a `{success: true}` envelope (a file). */
  accepted?: (res: CallResult) => void;
}

/** The security cases of session routes: no session, an API key in its place, another user's site. */
export function sessionMatrix(o: SessionMatrixOptions): void {
  it('refuses a request without a session (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send({}, mine.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses an API key in place of a session (401)', async () => {
    const { mine } = o.tenants();
    for (const present of Object.values(presenters)) {
      if (o.keyPresenters?.includes(present)) continue;
      expectError(await o.send(present(mine.key), mine.siteId), 401, 'UNAUTHORIZED');
    }
  });
  if (o.namesSite ?? true) {
    it("refuses another user's site (403)", async () => {
      const { mine, other } = o.tenants();
      expectError(await o.send(mine.user.auth, other.siteId), 403, 'FORBIDDEN');
    });
  }
  it('accepts the owner’s session', async () => {
    const { mine } = o.tenants();
    const res = await o.send(mine.user.auth, mine.siteId);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    if (o.accepted) o.accepted(res);
    else expect(res.body.success).toBe(true);
  });
}

export interface PlatformTenant {
  tenant: Tenant;
  platform: PlatformFixture;
}

export interface PlatformMatrixOptions {
  /** The caller (a site with an app and platform keys) and a second, unrelated one. Read lazily. */
  tenants: () => { mine: PlatformTenant; other: PlatformTenant };
  /** Performs an otherwise valid request with these headers, naming this site. */
  send: (headers: Record<string, string>, siteId: string) => Promise<CallResult>;
  /** The capabilities that open the route (any of them), or `any`. */
  capabilities: readonly Capability[] | 'any';
  /** The request can name a site (`site_id` in its query or body), so foreign sites can be tried. */
  namesSite?: boolean;
  /** A request of the caller naming the other site's object instead of its own, and the status it must get. */
  foreignObject?: { send: (headers: Record<string, string>) => Promise<CallResult>; status: number };
}

/**
 * The security cases of platform routes: no key, malformed, unknown, revoked, expired; an API key
 * or a session token in place of a platform key; a key lacking the route's capabilities (403);
 * another site's key or `site_id` (403); another site's object (404).
 */
export function platformKeyMatrix(o: PlatformMatrixOptions): void {
  const bearer = presenters.bearer;
  it('refuses a request without a key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send({}, mine.tenant.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses a malformed key (401)', async () => {
    const { mine } = o.tenants();
    const key = mine.platform.key;
    expectError(await o.send(bearer('sgp_pk_not-a-key'), mine.tenant.siteId), 401, 'UNAUTHORIZED');
    expectError(await o.send(bearer(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')), mine.tenant.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses an unknown, well-formed key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(bearer(generatePlatformKey()), mine.tenant.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses a revoked and an expired key (401)', async () => {
    const { mine } = o.tenants();
    expectError(await o.send(bearer(mine.platform.revokedKey), mine.tenant.siteId), 401, 'UNAUTHORIZED');
    expectError(await o.send(bearer(mine.platform.expiredKey), mine.tenant.siteId), 401, 'UNAUTHORIZED');
  });
  it('refuses an API key or a session token in place of a platform key (401)', async () => {
    const { mine } = o.tenants();
    for (const present of Object.values(presenters)) expectError(await o.send(present(mine.tenant.key), mine.tenant.siteId), 401, 'UNAUTHORIZED');
    expectError(await o.send(mine.tenant.user.auth, mine.tenant.siteId), 401, 'UNAUTHORIZED');
    // A platform key in a header the platform API does not read.
    expectError(await o.send({ 'x-api-key': mine.platform.key }, mine.tenant.siteId), 401, 'UNAUTHORIZED');
  });
  const needed = o.capabilities;
  if (needed !== 'any') {
    it(`refuses a key without ${needed.join(' or ')} (403)`, async () => {
      const { mine } = o.tenants();
      expectError(await o.send(bearer(await mine.platform.keyWithout(needed)), mine.tenant.siteId), 403, 'FORBIDDEN');
    });
  }
  if (o.namesSite ?? true) {
    it("refuses another site's key for this site (403)", async () => {
      const { mine, other } = o.tenants();
      expectError(await o.send(bearer(other.platform.key), mine.tenant.siteId), 403, 'FORBIDDEN');
    });
    it("refuses this key naming another site's site_id (403)", async () => {
      const { mine, other } = o.tenants();
      expectError(await o.send(bearer(mine.platform.key), other.tenant.siteId), 403, 'FORBIDDEN');
    });
  }
  if (o.foreignObject) {
    const foreign = o.foreignObject;
    it(`answers ${foreign.status} for another site's object`, async () => {
      const { mine } = o.tenants();
      const res = await foreign.send(bearer(mine.platform.key));
      expect(res.status, JSON.stringify(res.body)).toBe(foreign.status);
    });
  }
  it('accepts a valid key', async () => {
    const { mine } = o.tenants();
    const res = await o.send(bearer(mine.platform.key), mine.tenant.siteId);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(res.body.success).toBe(true);
  });
}
