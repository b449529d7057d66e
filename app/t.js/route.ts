// route-manifest: exempt — a static script for browsers, not an API operation
import { servedFast } from '@/lib/http/define-route';
import { SNIPPET } from '@/lib/visitors/snippet.min';

// GET /t.js — the browser tracking snippet (see lib/visitors/snippet.ts for usage)
export const GET = servedFast(
  'every tracked page loads the tag',
  () =>
    new Response(SNIPPET, {
      headers: {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'public, max-age=300',
        // Loaded cross-origin by the sites that embed it.
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      },
    }),
);
