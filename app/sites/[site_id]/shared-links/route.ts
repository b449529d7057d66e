import { z } from 'zod';
import { CreatedSharedLinkSchema, createShareBodySchema, createSharedLink, SharedLinkSchema, sharedLinks } from '@/lib/analytics/shares';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

const params = z.object({ site_id: siteIdSchema });

// GET /sites/{site_id}/shared-links — the site's shared read-only dashboard links (never their tokens)
export const GET = defineRoute({
  summary: 'List shared dashboard links',
  description: 'The live links to the read-only dashboard, newest first. Tokens are not kept and never listed.',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params,
  response: z.array(SharedLinkSchema),
  handler: ({ siteId }) => sharedLinks(siteId),
});

// POST /sites/{site_id}/shared-links — make a link to a read-only dashboard of the site
export const POST = defineRoute({
  summary: 'Make a shared dashboard link',
  description:
    "A public page (`/share/<token>`, `noindex`) showing the site's Overview read only, optionally behind a password (stored hashed). " +
    'The token is answered this once: only its hash is kept. At most 100 links per site (409 CONFLICT beyond).',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params,
  body: createShareBodySchema,
  response: CreatedSharedLinkSchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => createSharedLink(siteId, body),
});
