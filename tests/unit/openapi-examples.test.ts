import { describe, expect, it } from 'vitest';
import { routeManifest, schemaModules } from '@/app/api/openapi.json/manifest';
import { buildOpenApi } from '@/lib/http/openapi';
import { documentValidator } from '../helpers/openapi-validate';

type Media = { schema: object; example?: unknown; examples?: Record<string, { value: unknown }> };
type Response = { $ref?: string; content?: Record<string, Media> };
type Op = {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, Response>;
  parameters: { name: string; schema: object; example?: unknown }[];
};

const doc = buildOpenApi(routeManifest, { schemaModules }) as unknown as {
  paths: Record<string, Record<string, Op>>;
  components: { responses: Record<string, Response> };
};
const check = documentValidator(doc);
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);

/** Every example of a media type with its schema. */
function examplesOf(media: Media | undefined): unknown[] {
  if (!media) return [];
  return [...('example' in media ? [media.example] : []), ...Object.values(media.examples ?? {}).map((e) => e.value)];
}

describe('OpenAPI examples (recorded from the suites: npm run openapi:examples; the rest written from their fixtures)', () => {
  it.each(operations)('$name: each example matches its schema', ({ op }) => {
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      for (const example of examplesOf(media)) expect(check(media.schema, example), `request ${type}`).toEqual([]);
    }
    for (const p of op.parameters) if (p.example !== undefined) expect(check(p.schema, p.example), `parameter ${p.name}`).toEqual([]);
    for (const [status, response] of Object.entries(op.responses)) {
      for (const media of Object.values(response.content ?? {}))
        for (const example of examplesOf(media)) expect(check(media.schema, example), status).toEqual([]);
    }
  });

  it('every operation has a request-body example (where it has a body) and an example for every documented response', () => {
    const missing: string[] = [];
    for (const { name, op } of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
        if (!examplesOf(media).length) missing.push(`${name}: request ${type}`);
      for (const [status, response] of Object.entries(op.responses)) {
        // A shared error answer carries an example per code (next test); an answer without a body, or a binary one (an image), has
        // nothing to show.
        const content = response.$ref ? doc.components.responses[response.$ref.split('/').pop()!].content : response.content;
        for (const [type, media] of Object.entries(content ?? {}))
          if (!examplesOf(media).length && (media.schema as { format?: string } | undefined)?.format !== 'binary')
            missing.push(`${name}: ${status} ${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every shared error answer has an example of each of its codes, matching its schema', () => {
    for (const [name, response] of Object.entries(doc.components.responses)) {
      const media = response.content!['application/json'];
      expect(Object.keys(media.examples ?? {}).length, name).toBeGreaterThan(0);
      for (const example of examplesOf(media)) expect(check(media.schema, example), name).toEqual([]);
    }
  });
});
