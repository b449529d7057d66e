import { processState } from '@/lib/core/process-state';
import { REQUEST_ID_HEADER } from '@/lib/http/envelope';
import { buildOpenApi } from '@/lib/http/openapi';
import { splitOpenApi, type SplitDocument } from '@/lib/http/openapi-split';
import { routeManifest, schemaModules } from './manifest';

/** The document as served: built once, split by tag (lib/http/openapi-split.ts). */
export function servedOpenApi(): SplitDocument {
  return processState('http.openApiDocument', () =>
    splitOpenApi(buildOpenApi(routeManifest, { schemaModules }) as unknown as Parameters<typeof splitOpenApi>[0]),
  );
}

/** The document (or one part) as JSON, with the request's id like every other API answer. */
export const jsonResponse = (body: unknown, requestId: string) =>
  new Response(JSON.stringify(body), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=60', [REQUEST_ID_HEADER]: requestId },
  });
