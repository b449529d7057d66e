import { z } from 'zod';
import { listQueryPagination, siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { RequirementListSchema, listRequirementsFilters } from '@/lib/requirements/schema';
import { requirementsPage } from '@/lib/requirements/service';

// GET /api/requirements?site_id= — the site's requirements (same result as the requirements/get tool)
export const GET = defineRoute({
  summary: 'List requirements (site scoped)',
  description: 'Same filters and result as POST /api/agents/tools/requirements/get, as a GET with query parameters.',
  tags: ['Tools'],
  auth: policies.key,
  query: z.strictObject({
    site_id: siteIdSchema,
    ...listRequirementsFilters,
    ...listQueryPagination,
  }),
  response: RequirementListSchema,
  envelope: 'bare',
  handler: ({ siteId, query }) => requirementsPage(siteId, query),
});
