// route-manifest: exempt — one part of the OpenAPI document (/api/openapi.json refers to it).
import { jsonResponse, servedOpenApi } from '@/app/api/openapi.json/served';
import { ApiError } from '@/lib/core/errors';
import { errorResponse } from '@/lib/http/envelope';
import { requestIdOf } from '@/lib/http/request-id';

// GET /api/openapi/<tag>.json — the path items of one tag, referring to /api/openapi.json for the shared components
export async function GET(req: Request, ctx: { params: Promise<{ part: string }> }): Promise<Response> {
  const requestId = requestIdOf(req);
  const part = servedOpenApi().parts[(await ctx.params).part];
  if (!part) return errorResponse(new ApiError('NOT_FOUND', 'No such part of the API document'), requestId);
  return jsonResponse(part, requestId);
}
