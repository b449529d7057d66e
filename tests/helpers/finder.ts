import { POST as createQueryRoute } from '@/app/api/finder/person_role_search/createQuery/route';
import { presenters } from './auth-matrix';
import { call, type Tenant } from './harness';

/** POST /api/finder/person_role_search/createQuery with the tenant's key (Bearer) and site. */
export const createRoleQuery = (t: Tenant, body: Record<string, unknown>) =>
  call(createQueryRoute, {
    method: 'POST',
    path: '/api/finder/person_role_search/createQuery',
    headers: presenters.bearer(t.key),
    body: { site_id: t.siteId, ...body },
  });
