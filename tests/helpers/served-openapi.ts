import { GET as openapiPartRoute } from '@/app/api/openapi/[part]/route';
import { GET as openapiRoute } from '@/app/api/openapi.json/route';
import { bundleOpenApi, partsOf, type Doc } from '@/lib/http/openapi-split';

/**
 * The document as a client meets it: /api/openapi.json and the part of each tag it refers to
 * (/api/openapi/<tag>.json), fetched from the routes; `whole` is the parts put together.
 */
export async function servedOpenApi(origin = 'http://localhost:3000') {
  const main = (await openapiRoute(new Request(`${origin}/api/openapi.json`)).json()) as Doc;
  const parts: Record<string, Doc> = {};
  for (const part of partsOf(main)) {
    const res = await openapiPartRoute(new Request(`${origin}/api/openapi/${part}`), { params: Promise.resolve({ part }) });
    if (res.status !== 200) throw new Error(`/api/openapi/${part}: HTTP ${res.status}`);
    parts[part] = (await res.json()) as Doc;
  }
  return { main, parts, whole: bundleOpenApi(main, parts) as any };
}
