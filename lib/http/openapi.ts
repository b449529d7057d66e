import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@/lib/core/errors';
import { securitySchemes, strategiesOf, type AuthPolicy } from './auth';
import type { RouteDoc, RouteHandler } from './define-route';
import { policyOf, VISITOR_LIMITS } from './rate-limit';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RouteModule = Partial<Record<(typeof HTTP_METHODS)[number], RouteHandler>> & Record<string, unknown>;
export type RouteManifest = { path: string; module: RouteModule }[];

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

function security(auth: AuthPolicy) {
  return strategiesOf(auth).flatMap((s) => s.security(auth));
}

function errorCodesOf(def: RouteDoc): ErrorCode[] {
  const codes = new Set<ErrorCode>(['SYSTEM_ERROR', ...(def.errors ?? [])]);
  if (def.params || def.query || def.body) codes.add('INVALID_REQUEST');
  if (def.body) codes.add('PAYLOAD_TOO_LARGE');
  for (const strategy of strategiesOf(def.auth)) for (const code of strategy.errors) codes.add(code);
  if (def.invalidSiteIdCode) codes.add(def.invalidSiteIdCode);
  for (const code of Object.values(def.fieldErrorCodes ?? {})) if (code) codes.add(code);
  if (policyOf(def.rateLimit, def.auth.kind) !== 'none') codes.add('RATE_LIMITED');
  return [...codes];
}

/**
 * `{success: true, ...data}` as one object schema: `success` joins data's own properties, since
 * an `allOf` with a closed (additionalProperties: false) data schema would refuse `success` itself.
 */
function bareEnvelope(data: Record<string, unknown>) {
  const success = { type: 'object', properties: { success: { const: true } }, required: ['success'] };
  if (data.type !== 'object' || !data.properties) return { allOf: [success, data] };
  return {
    ...data,
    properties: { ...success.properties, ...(data.properties as object) },
    required: ['success', ...((data.required as string[] | undefined) ?? [])],
  };
}

function responses(def: RouteDoc) {
  const data = jsonSchema(def.response, 'output');
  const success =
    def.envelope === 'raw'
      ? data
      : def.envelope === 'bare'
      ? bareEnvelope(data)
      : {
          type: 'object',
          properties: { success: { const: true }, data, meta: { type: 'object' } },
          required: ['success', 'data'],
        };
  const out: Record<string, unknown> = {
    [String(def.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: success } } },
  };
  for (const [status, description] of Object.entries(def.alsoSucceeds ?? {})) out[status] = { description, content: { 'application/json': { schema: success } } };
  for (const [status, description] of Object.entries(def.otherResponses ?? {})) out[status] = { description };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(def)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: codes.join(' or '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return out;
}

function parameters(def: RouteDoc) {
  const list: Record<string, unknown>[] = [];
  for (const [where, schema] of [['path', def.params], ['query', def.query]] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, 'input') as { properties?: Record<string, { description?: string }>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        description: prop.description,
        schema: prop,
      });
    }
  }
  return list;
}

/** Media types of the request body, by how the route reads it. */
function requestContent(def: RouteDoc) {
  const schema = jsonSchema(def.body!, 'input');
  if (def.bodyType === 'multipart') return { 'multipart/form-data': { schema } };
  if (def.bodyType === 'beacon') return { 'application/json': { schema }, 'text/plain': { schema } };
  return { 'application/json': { schema } };
}

function operation(def: RouteDoc, method: string, path: string) {
  // The primary credential first, then the alternatives a route also accepts.
  const authNote = strategiesOf(def.auth)
    .reverse()
    .map((s) => s.note(def.auth, method))
    .join(' ');
  const policy = policyOf(def.rateLimit, def.auth.kind);
  const limitNote =
    policy === 'plan'
      ? "Rate limited by the site's plan (Basic 60/min and 5 concurrent, Pro 300/min and 20, Enterprise custom); responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds); 429 carries Retry-After (seconds)."
      : policy === 'visitor'
        ? `Rate limited to ${VISITOR_LIMITS.perIp} requests/min per client IP and ${VISITOR_LIMITS.perKey}/min per API key; responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds); 429 carries Retry-After (seconds).`
        : undefined;
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: def.summary,
    description: [def.description, authNote, limitNote].filter(Boolean).join('\n\n'),
    tags: def.tags,
    security: security(def.auth),
    parameters: parameters(def),
    ...(def.body ? { requestBody: { required: true, content: requestContent(def) } } : {}),
    responses: responses(def),
  };
}

/** Every (path, method) the manifest's modules export, with its definition. */
export function operationsOf(manifest: RouteManifest) {
  return manifest.flatMap(({ path, module }) =>
    HTTP_METHODS.filter((m) => module[m]).map((method) => ({ path, method, definition: module[method]?.definition })),
  );
}

/**
 * The order a reader meets the groups in: first how to get a credential, then the site and its keys,
 * then the data routes. Tags not listed here follow alphabetically, before `Meta`.
 */
export const TAG_ORDER = [
  'Auth',
  'Sites',
  'API keys',
  'Allowed origins',
  'Visitor sessions',
  'Commands',
  'Tools',
  'Agents',
  'Workflows',
  'Webhooks',
  'Instances',
  'Robots',
  'Finder',
  'Secure tokens',
  'Platform apps and keys',
  'Platform API',
  'Email',
];

export function orderedTags(used: Iterable<string>): string[] {
  const all = new Set(used);
  const known = TAG_ORDER.filter((t) => all.has(t));
  const rest = [...all].filter((t) => !TAG_ORDER.includes(t) && t !== 'Meta').sort((a, b) => a.localeCompare(b));
  return [...known, ...rest, ...(all.has('Meta') ? ['Meta'] : [])];
}

export function buildOpenApi(manifest: RouteManifest) {
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  for (const { path, method, definition } of operationsOf(manifest)) {
    if (!definition) continue;
    (paths[path] ??= {})[method.toLowerCase()] = operation(definition, method, path);
    for (const tag of definition.tags) used.add(tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Site Growth Platform API',
      version: '1.0.0',
      description:
        'Site-scoped sales and marketing automation. Every response carries `X-Request-ID`. ' +
        'Errors use `{success:false, error:{code, message, details?, request_id}}`. Paginated lists put ' +
        '`{total, limit, offset, has_more}` in `meta`.',
    },
    tags: orderedTags(used).map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: securitySchemes(),
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            code: { type: 'string', enum: ERROR_CODES, description: 'Repeats error.code on routes that say so (workflow start)' },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: ERROR_CODES },
                message: { type: 'string' },
                details: { type: 'object' },
                request_id: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
}
