import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { withMeta } from '@/lib/http/route-group';
import { listSecureTokensQuerySchema, SecureTokenAuditSchema } from '@/lib/secure-tokens/schema';
import { siteAudit } from '@/lib/secure-tokens/service';

// GET /api/secure-tokens/audit — who decrypted, created or deleted the site's secrets, refused attempts included
export const GET = defineRoute({
  summary: 'Audit of a site’s secrets',
  tags: ['Secure tokens'],
  auth: policies.owner,
  permission: 'secrets.manage',
  query: listSecureTokensQuerySchema,
  response: z.array(SecureTokenAuditSchema),
  handler: ({ siteId, query, res }) => withMeta(res, siteAudit(siteId!, query)),
});
