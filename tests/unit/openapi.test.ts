import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GET as openapiPartRoute } from '@/app/api/openapi/[part]/route';
import { routeManifest, schemaModules } from '@/app/api/openapi.json/manifest';
import { GET as openapiRoute } from '@/app/api/openapi.json/route';
import { buildOpenApi, HTTP_METHODS, operationsOf } from '@/lib/http/openapi';
import { findRouteFiles, renderManifest, renderRouteTable, withFastPath } from '@/scripts/route-files';
import { servedOpenApi } from '../helpers/served-openapi';

describe('route manifest and OpenAPI', () => {
  it('the manifest is current (run `npm run routes` after adding a route file)', () => {
    expect(readFileSync('app/api/openapi.json/manifest.ts', 'utf8')).toBe(renderManifest(findRouteFiles()));
  });

  it("the server entry's route table is current (`npm run routes`)", async () => {
    // Which routes are served fast is read from their declarations: the modules are imported.
    expect(readFileSync('lib/http/route-table.json', 'utf8')).toBe(renderRouteTable(await withFastPath(findRouteFiles())));
  });

  it('every route file declares its operations, or is explicitly exempt with a reason', async () => {
    const files = findRouteFiles();
    for (const file of files) {
      const mod = (await import(/* @vite-ignore */ path.resolve(file.file))) as Record<string, unknown>;
      const methods = HTTP_METHODS.filter((m) => typeof mod[m] === 'function');
      expect(methods.length, `${file.file} exports no HTTP method`).toBeGreaterThan(0);
      // The route table's methods are read from the file's text: they must be the module's.
      const exported = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].filter((m) => typeof mod[m] === 'function');
      expect(file.methods, `${file.file}: the methods read from its exports`).toEqual(exported);
      if (file.exempt) {
        expect(readFileSync(file.file, 'utf8')).toMatch(/route-manifest: exempt — \S+/);
        continue;
      }
      for (const m of methods) {
        expect((mod[m] as { definition?: unknown }).definition, `${m} ${file.urlPath} is not a defineRoute declaration`).toBeDefined();
      }
    }
  });

  it('every operation in the document has a route, and every route an operation', () => {
    const doc = buildOpenApi(routeManifest);
    const filePaths = new Set(findRouteFiles().map((f) => f.urlPath));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    // A route with variants is documented once per value (one operation per workflow), except where a route of its own answers.
    const declared = operationsOf(routeManifest).flatMap(({ method, path, definition }) => {
      const variants = definition?.openapi?.variants;
      if (!variants) return [`${method} ${path}`];
      return variants.values
        .map((v) => path.replace(`{${variants.param}}`, v.value))
        .filter((p) => !filePaths.has(p))
        .map((p) => `${method} ${p}`);
    });
    expect(documented.sort()).toEqual(declared.sort());
    const start = doc.paths['/api/workflow/leadGeneration'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(start.requestBody.content['application/json'].schema.required).toEqual(['site_id']);
    expect(doc.paths['/api/workflow/{name}']).toBeUndefined();
  });

  it('is served split by tag, each file under 300 KB, and the parts put together are the whole document', async () => {
    const { main, parts, whole: served } = await servedOpenApi();
    const sizes = {
      'openapi.json': JSON.stringify(main).length,
      ...Object.fromEntries(Object.entries(parts).map(([f, p]) => [f, JSON.stringify(p).length])),
    };
    for (const [file, size] of Object.entries(sizes)) expect(size, file).toBeLessThan(300 * 1024);
    expect(Object.keys(parts).length).toBeGreaterThan(1);
    const whole = buildOpenApi(routeManifest, { schemaModules });
    expect(served).toEqual({ ...whole, servers: [{ url: 'http://localhost:3000', description: 'This server' }] });
    const unknown = await openapiPartRoute(new Request('http://localhost:3000/api/openapi/nothing.json'), {
      params: Promise.resolve({ part: 'nothing.json' }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('answers with the request id (the caller’s own when it sent one), like every other API route', async () => {
    const asked = { headers: { 'x-request-id': 'docs-fetch-1' } };
    const main = openapiRoute(new Request('http://localhost:3000/api/openapi.json', asked));
    expect(main.headers.get('x-request-id')).toBe('docs-fetch-1');
    const part = Object.keys((await servedOpenApi()).parts)[0];
    const one = await openapiPartRoute(new Request(`http://localhost:3000/api/openapi/${part}`), { params: Promise.resolve({ part }) });
    expect(one.status).toBe(200);
    expect(one.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('documents the spec paths with their security and error envelope', async () => {
    const doc = (await servedOpenApi()).whole;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/sites'].get.security).toEqual([{ ApiKey: [] }]);
    expect(doc.paths['/api/keys'].post.security).toEqual([{ Bearer: [] }, { SessionCookie: [] }]);
    expect(doc.paths['/sites/{site_id}/commands'].post.responses['201']).toBeDefined();
    expect(doc.paths['/sites/{site_id}/commands'].post.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(doc.components.responses.Forbidden.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ForbiddenError' });
    expect(doc.components.responses.NotFound.description).toContain('NOT_FOUND');
    expect(doc.servers).toEqual([{ url: 'http://localhost:3000', description: 'This server' }]);
    expect(doc.paths['/sites/{site_id}'].get.parameters).toContainEqual(expect.objectContaining({ name: 'site_id', in: 'path', required: true }));
  });
});
