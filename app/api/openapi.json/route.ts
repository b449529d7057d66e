// route-manifest: exempt — serves the document built from every other route's declaration.
import { buildOpenApi } from '@/lib/http/openapi';
import { routeManifest } from './manifest';

let document: string | undefined;

// GET /api/openapi.json — the OpenAPI 3.1 document
export function GET(): Response {
  document ??= JSON.stringify(buildOpenApi(routeManifest));
  return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=60' } });
}
