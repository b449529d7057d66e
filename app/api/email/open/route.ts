import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { trackingQuerySchema } from '@/lib/sequences/schema';
import { trackOpen } from '@/lib/sequences/track';
import { PIXEL_GIF } from '@/lib/sequences/tracking';

// GET /api/email/open — the open pixel of a sequence's message
export const GET = defineRoute({
  summary: 'Open pixel',
  description:
    'The 1×1 image at the end of an HTML message of a sequence with tracking on. Loading it marks the message opened ' +
    '(once: later loads by image proxies or prefetchers count in `opens` but not as another open). The signed token ' +
    'names the site and the message; an altered one is 404.',
  tags: ['Sequences'],
  auth: policies.public,
  query: trackingQuerySchema,
  response: z.unknown(),
  envelope: 'raw',
  openapi: { successMedia: { json: false, description: 'A transparent 1×1 GIF', types: { 'image/gif': { description: 'A transparent 1×1 GIF' } } } },
  errors: ['NOT_FOUND'],
  handler: async ({ query }) => {
    await trackOpen(query.t);
    return new Response(new Uint8Array(PIXEL_GIF), {
      headers: { 'content-type': 'image/gif', 'cache-control': 'no-store, max-age=0', 'content-length': String(PIXEL_GIF.length) },
    });
  },
});
