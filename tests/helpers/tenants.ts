import { beforeAll } from 'vitest';
import { createTenant, type Tenant } from './harness';

/**
 * `count` tenants (a user, a site and its keys each) for the tests of the calling scope, created
 * together before them: `const [mine, other] = suiteTenants(2)`. Each is filled in place, so it is
 * usable from the tests (and any later `beforeAll`) on.
 */
export function suiteTenants(count: number): Tenant[] {
  const tenants = Array.from({ length: count }, () => ({}) as Tenant);
  beforeAll(async () => {
    const created = await Promise.all(tenants.map(() => createTenant()));
    created.forEach((t, i) => Object.assign(tenants[i], t));
  });
  return tenants;
}
