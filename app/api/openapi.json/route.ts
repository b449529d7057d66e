// route-manifest: exempt — serves the document built from every other route's declaration.
import { requestIdOf } from '@/lib/http/request-id';
import { jsonResponse, servedOpenApi } from './served';

// GET /api/openapi.json — the OpenAPI 3.1 document (its paths in one part per tag, /api/openapi/<tag>.json); its server is the origin it was asked from
export function GET(req: Request): Response {
  const { main } = servedOpenApi();
  return jsonResponse({ ...main, servers: [{ url: new URL(req.url).origin, description: 'This server' }] }, requestIdOf(req));
}
