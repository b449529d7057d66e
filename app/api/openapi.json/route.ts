// route-manifest: exempt — serves the document built from every other route's declaration.
import { buildOpenApi } from '@/lib/http/openapi';
import { routeManifest, schemaModules } from './manifest';

let document: ReturnType<typeof buildOpenApi> | undefined;

// GET /api/openapi.json — the OpenAPI 3.1 document; its server is the origin it was asked from
export function GET(req: Request): Response {
  document ??= buildOpenApi(routeManifest, { schemaModules });
  const origin = new URL(req.url).origin;
  const served = { ...document, servers: [{ url: origin, description: 'This server' }] };
  return new Response(JSON.stringify(served), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=60' } });
}
