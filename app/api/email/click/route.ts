import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { trackingQuerySchema } from '@/lib/sequences/schema';
import { trackClick } from '@/lib/sequences/track';

// GET /api/email/click — a tracked link of a sequence's message: records the click, redirects to its target
export const GET = defineRoute({
  summary: 'Tracked link',
  description:
    'Every http(s) link of a message of a sequence with tracking on points here. The signed token names the site, ' +
    'the message and the target: the click is recorded (the message counts as clicked, and opened, once) and the ' +
    'answer is a 302 to the target. An altered or forged token is 404 and redirects nowhere; only http(s) targets exist.',
  tags: ['Sequences'],
  auth: policies.public,
  query: trackingQuerySchema,
  response: z.unknown(),
  envelope: 'raw',
  status: 302,
  openapi: { successMedia: { json: false, description: 'Redirect to the link’s target (`Location`)' } },
  errors: ['NOT_FOUND'],
  handler: async ({ query }) => {
    const target = await trackClick(query.t);
    return new Response(null, { status: 302, headers: { location: target, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
  },
});
