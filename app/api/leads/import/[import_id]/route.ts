import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { getImport } from '@/lib/leads/import';
import { importParamsSchema, importQuerySchema, LeadImportSchema } from '@/lib/leads/import-schema';

// GET /api/leads/import/{import_id} — an import's progress and result
export const GET = defineRoute({
  summary: 'Get a lead import',
  description: "Progress (`processed_rows` of `total_rows`) and result of an import of the site; another site's import is 404.",
  tags: ['Leads'],
  auth: policies.keyOrMember,
  params: importParamsSchema,
  query: importQuerySchema,
  response: LeadImportSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => getImport(siteId, params.import_id),
});
