import { paginationMeta } from '@/lib/core/schemas';
import { listRequirements } from './repo';

export { createRequirement, updateRequirement } from './repo';

/** One page of the site's requirements with its paging fields: the requirements tool's and `GET /api/requirements`' answer. */
export async function requirementsPage(siteId: string, q: Parameters<typeof listRequirements>[1]) {
  const { items, total } = await listRequirements(siteId, q);
  return { requirements: items, ...paginationMeta(total, q.limit, q.offset) };
}
