import { z } from 'zod';
import { CreatedSharedLinkSchema, createShareBodySchema, createSharedLink, SharedLinkSchema, sharedLinks } from '@/lib/analytics/shares';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/shared-links — the site's shared read-only dashboard links (never their tokens)
export const GET = analyticsRoute({
  summary: 'List shared dashboard links',
  description: 'The live links to the read-only dashboard, newest first. Tokens are not kept and never listed.',
  response: z.array(SharedLinkSchema),
  handler: ({ siteId }) => sharedLinks(siteId),
});

// POST /sites/{site_id}/shared-links — make a link to a read-only dashboard of the site
export const POST = analyticsRoute({
  summary: 'Make a shared dashboard link',
  description:
    "A public page (`/share/<token>`, `noindex`) showing the site's Overview read only, optionally behind a password (stored hashed). " +
    'The token is answered this once: only its hash is kept. At most 100 links per site (409 CONFLICT beyond).',
  body: createShareBodySchema,
  response: CreatedSharedLinkSchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => createSharedLink(siteId, body),
});
