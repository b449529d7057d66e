import type { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@/lib/core/errors';
import { can, ROLES } from '@/lib/members/permissions';
import { securitySchemes, strategiesOf, type AuthPolicy } from './auth';
import type { RouteDoc, RouteHandler } from './define-route';
import { recordedExamples, type ErrorExamples, type ExampleSet, type OperationExamples } from './openapi-examples';
import { Components, toJson, type Json, type SchemaModule } from './openapi-schemas';
import { policyOf, VISITOR_LIMITS } from './rate-limit';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RouteModule = Partial<Record<(typeof HTTP_METHODS)[number], RouteHandler>> & Record<string, unknown>;
export type RouteManifest = { path: string; module: RouteModule }[];

function security(auth: AuthPolicy) {
  return strategiesOf(auth).flatMap((s) => s.security(auth));
}

function errorCodesOf(def: RouteDoc): ErrorCode[] {
  const codes = new Set<ErrorCode>(['SYSTEM_ERROR', 'SERVICE_UNAVAILABLE', ...(def.errors ?? [])]);
  if (def.params || def.query || def.body) codes.add('INVALID_REQUEST');
  if (def.body) codes.add('PAYLOAD_TOO_LARGE');
  for (const strategy of strategiesOf(def.auth)) for (const code of strategy.errors) codes.add(code);
  if (def.specErrors?.invalidSiteId) codes.add(def.specErrors.invalidSiteId);
  for (const code of Object.values(def.specErrors?.fields ?? {})) if (code) codes.add(code);
  if (policyOf(def.rateLimit, def.auth.kind) !== 'none') codes.add('RATE_LIMITED');
  return [...codes];
}

/**
 * `{success: true, ...data}` as one object schema: `success` joins data's own properties, since
 * an `allOf` with a closed (additionalProperties: false) data schema would refuse `success` itself.
 */
function bareEnvelope(data: Json) {
  const success = { type: 'object', properties: { success: { const: true } }, required: ['success'] };
  if (data.type !== 'object' || !data.properties) return { allOf: [success, data] };
  return {
    ...data,
    properties: { ...success.properties, ...(data.properties as object) },
    required: ['success', ...((data.required as string[] | undefined) ?? [])],
  };
}

/** The success body's schema of a route, as its envelope wraps the response schema. */
function successSchema(def: RouteDoc, components: Components): Json {
  const data = toJson(def.response, 'output');
  if (def.envelope === 'raw') return components.refer(data);
  if (def.envelope === 'bare') return components.refer(bareEnvelope(data));
  return {
    type: 'object',
    properties: {
      success: { const: true },
      data: components.refer(data),
      meta: { type: 'object', description: 'Pagination of lists: `{total, limit, offset, has_more}`' },
    },
    required: ['success', 'data'],
  };
}

/** Response headers every answer carries, and the ones of rate-limited routes. */
const HEADERS = {
  'X-Request-ID': {
    description: 'The request id (echoes a valid `X-Request-ID` sent by the client); quoted in error bodies and logs',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this caller', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'When the current minute window ends (Unix seconds)', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
};
const headerRefs = (names: (keyof typeof HEADERS)[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** `NOT_FOUND` → `NotFoundError`: the component schema of one error code. */
export const errorSchemaName = (code: ErrorCode) =>
  code
    .toLowerCase()
    .split('_')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('') + 'Error';

function errorSchema(code: ErrorCode): Json {
  return {
    type: 'object',
    description: `The error envelope with code \`${code}\` (HTTP ${ERROR_STATUS[code]})`,
    required: ['success', 'error'],
    properties: {
      success: { const: false },
      code: { const: code, description: 'Repeats error.code on routes that say so (workflow start)' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { const: code },
          message: { type: 'string', description: 'What went wrong, for a person' },
          details: { type: 'object', description: 'Structured detail, e.g. the invalid fields of INVALID_REQUEST' },
          request_id: { type: 'string', description: 'The X-Request-ID of the answer' },
        },
      },
    },
  };
}

function responses(def: RouteDoc, components: Components, ex: OperationExamples | undefined, errorResponses: ErrorResponses) {
  const limited = policyOf(def.rateLimit, def.auth.kind) !== 'none';
  const headers = headerRefs(limited ? ['X-Request-ID', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : ['X-Request-ID']);
  const success = successSchema(def, components);
  const json = (status: string, schema: Json) => ({ schema, ...(ex?.responses?.[status] !== undefined ? { example: ex.responses[status] } : {}) });
  const okStatus = String(def.status ?? 200);
  const media = def.openapi?.successMedia;
  const content: [string, unknown][] = [
    ...(media?.json === false ? [] : [['application/json', json(okStatus, success)] as [string, unknown]]),
    ...Object.entries(media?.types ?? {}).map(([type, { description, example }]): [string, unknown] => [
      type,
      {
        schema: { type: 'string', ...(type.startsWith('text/') ? {} : { format: 'binary' }), description },
        ...(example === undefined ? {} : { example }),
      },
    ]),
  ];
  const out: Record<string, unknown> = {
    [okStatus]: {
      description: media?.description ?? 'Success',
      headers,
      ...(content.length ? { content: Object.fromEntries(content) } : {}),
    },
  };
  for (const [status, description] of Object.entries(def.openapi?.alsoSucceeds ?? {})) {
    out[status] = { description, headers, content: { 'application/json': json(status, success) } };
  }
  for (const [status, description] of Object.entries(def.openapi?.otherResponses ?? {})) out[status] = { description, headers };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(def)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = { $ref: `#/components/responses/${errorResponses.add(codes.sort())}` };
  }
  return out;
}

/** Error answers as shared response components, one per set of codes a status carries (`NotFoundOrConflict`…). */
class ErrorResponses {
  readonly responses: Record<string, Json> = {};
  constructor(private examples: ErrorExamples) {}

  add(codes: ErrorCode[]): string {
    const name = codes.map((c) => errorSchemaName(c).replace(/Error$/, '')).join('Or');
    if (this.responses[name]) return name;
    const status = ERROR_STATUS[codes[0]];
    const refs = codes.map((code) => ({ $ref: `#/components/schemas/${errorSchemaName(code)}` }));
    this.responses[name] = {
      description: codes.join(' or '),
      headers: headerRefs(status === 429 || codes.includes('SERVICE_UNAVAILABLE') ? ['X-Request-ID', 'Retry-After'] : ['X-Request-ID']),
      content: {
        'application/json': {
          schema: refs.length === 1 ? refs[0] : { anyOf: refs },
          examples: Object.fromEntries(codes.map((code) => [code, { value: this.examples[code] }])),
        },
      },
    };
    return name;
  }
}

function parameters(def: RouteDoc, components: Components, ex: OperationExamples | undefined, fixed: Record<string, string> = {}) {
  const list: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = toJson(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      if (name in fixed) continue;
      const { description, ...rest } = prop;
      const example = (where === 'path' ? ex?.params : ex?.query)?.[name];
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: components.refer(rest),
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  return list;
}

/** Media types of the request body, by how the route reads it. */
function requestContent(def: RouteDoc, body: z.ZodType, components: Components, ex: OperationExamples | undefined) {
  const schema = components.refer(toJson(body, 'input'));
  const media = { schema, ...(ex && 'request' in ex ? { example: ex.request } : {}) };
  if (def.bodyReading?.type === 'multipart') return { 'multipart/form-data': media };
  if (def.bodyReading?.type === 'beacon') return { 'application/json': media, 'text/plain': media };
  return { 'application/json': media };
}

/** One documented operation: a route's method, or one variant of it (a workflow name). */
interface OperationSpec {
  path: string;
  method: string;
  def: RouteDoc;
  /** Path parameters fixed by the variant. */
  fixed?: Record<string, string>;
  summary?: string;
  description?: string;
  body?: z.ZodType;
}

function operation(op: OperationSpec, components: Components, examples: ExampleSet, errorResponses: ErrorResponses) {
  const { def, method, path } = op;
  const ex = examples.operations[`${method} ${path}`];
  // The primary credential first, then the alternatives a route also accepts.
  const authNote = strategiesOf(def.auth)
    .reverse()
    .map((s) => s.note(def.auth, method))
    .join(' ');
  const roleNote =
    def.permission && strategiesOf(def.auth).some((s) => s.kind === 'session')
      ? `Signed-in members: the role must allow \`${def.permission}\` (${ROLES.filter((r) => can(r, def.permission!)).join(', ')}).`
      : undefined;
  const policy = policyOf(def.rateLimit, def.auth.kind);
  const limitNote =
    policy === 'plan'
      ? "Rate limited by the site's plan (Basic 60/min and 5 concurrent, Pro 300/min and 20, Enterprise custom)."
      : policy === 'visitor'
        ? `Rate limited to ${VISITOR_LIMITS.perIp} requests/min per client IP and ${VISITOR_LIMITS.perKey}/min per API key.`
        : undefined;
  // A body chosen by a path param is documented per value (`openapi.variants`), never as one schema.
  const body = op.body ?? (typeof def.body === 'function' ? undefined : def.body);
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: op.summary ?? def.summary,
    description: [op.description ?? def.description, authNote, roleNote, limitNote].filter(Boolean).join('\n\n'),
    tags: def.tags,
    security: security(def.auth),
    parameters: parameters(def, components, ex, op.fixed),
    ...(body ? { requestBody: { required: true, content: requestContent(def, body, components, ex) } } : {}),
    responses: responses(def, components, ex, errorResponses),
  };
}

/** The operations a route declaration documents: one per method, or one per variant value. */
function specsOf(path: string, method: string, def: RouteDoc, declared: Set<string>): OperationSpec[] {
  if (!def.openapi?.variants) return [{ path, method, def }];
  const { param, values } = def.openapi.variants;
  return values
    .map((v) => ({
      path: path.replace(`{${param}}`, v.value),
      method,
      def,
      fixed: { [param]: v.value },
      summary: v.summary,
      description: v.description,
      body: v.body,
    }))
    .filter((spec) => !declared.has(spec.path)); // a declared route of the same path answers it instead
}

/** Every (path, method) the manifest's modules export, with its definition. */
export function operationsOf(manifest: RouteManifest) {
  return manifest.flatMap(({ path, module }) =>
    HTTP_METHODS.filter((m) => module[m]).map((method) => ({ path, method, definition: module[method]?.definition })),
  );
}

/**
 * The groups in the order a reader meets them: first how to get a credential, then the site and
 * its keys, then the data routes. A tag used by a route must be listed here (the lint refuses an
 * undescribed tag); `Meta` comes last.
 */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Auth', description: 'Sign up and exchange a password for a session token (console and key management).' },
  {
    name: 'Sites',
    description: 'The sites the signed-in user is a member of and, with an API key, its own site: details, stats, changes, deletion.',
  },
  { name: 'API keys', description: 'Create, list, revoke and meter the API keys of a site. The full key is shown once, when created.' },
  {
    name: 'Leads',
    description:
      "A site's leads in bulk and its own lead fields: CSV import (deduplicated by email, large files as a job), CSV export, custom properties.",
  },
  { name: 'Allowed origins', description: 'Browser origins that may call the tracking routes without a key for a site.' },
  {
    name: 'Members',
    description: 'The people of a site and their roles (owner, admin, member, viewer), invitations by mail, hand-over of ownership.',
  },
  {
    name: 'Visitor sessions',
    description: 'Visits of a site: sessions, tracked events, identification, uploads (X-SA-API-KEY or an allowed browser origin).',
  },
  { name: 'Analytics', description: "Figures over a site's visits: overview by day, breakdowns, funnels." },
  { name: 'Commands', description: 'Tasks for the CMO agent, run in the background and followed by id.' },
  { name: 'Tools', description: 'CRM tools (leads, segments, requirements, settings, finder) as REST routes and as MCP tools over one definition.' },
  {
    name: 'People',
    description:
      "A person in the CRM: a lead's notes and timeline, the merge of two leads of one person, the export of everything stored about a person, and erasure of a lead or a visitor.",
  },
  { name: 'Agents', description: 'Messages to the agents (CMO, sales, support, copywriter, email) and their conversations.' },
  { name: 'Workflows', description: 'Start catalog workflows (one operation per workflow, with its body), follow, signal and cancel their runs.' },
  {
    name: 'Sequences',
    description:
      'Outreach sequences: email steps sent to enrolled leads with delays, a send window and caps, stopped by a reply, bounce or unsubscribe.',
  },
  { name: 'Webhooks', description: 'Endpoints that receive signed event deliveries, the deliveries and their attempts, change-event subscriptions.' },
  { name: 'Instances', description: 'Remote-browser instances: start, follow, plan and screenshot.' },
  { name: 'Robots', description: 'Robots that act on remote browsers for a site.' },
  { name: 'Finder', description: "People and company search at the people-data provider, paid from the site's finder credits." },
  { name: 'Secure tokens', description: 'Secrets a site stores encrypted for its workflows (e.g. third-party credentials), with an audit trail.' },
  { name: 'Platform apps and keys', description: 'Apps of the platform and their platform keys (owner session).' },
  { name: 'Platform API', description: 'What a platform key may call: its own identity, audit, lead batches, app migrations.' },
  { name: 'Email', description: 'Outbound email of a site and the messages it received.' },
  { name: 'Meta', description: 'Health and this document.' },
];

export function orderedTags(used: Iterable<string>): { name: string; description: string }[] {
  const all = new Set(used);
  const unknown = [...all].filter((t) => !TAGS.some((k) => k.name === t));
  if (unknown.length) throw new Error(`Tags without a description in TAGS (lib/http/openapi.ts): ${unknown.join(', ')}`);
  return TAGS.filter((t) => all.has(t.name));
}

export interface OpenApiOptions {
  /** Exported `XxxSchema` zod shapes, named as components (the manifest's `schemaModules`). */
  schemaModules?: SchemaModule[];
  examples?: ExampleSet;
}

/** The static document's server: fill in your deployment (the served document names its own origin). */
export const PLACEHOLDER_SERVER = {
  url: '{scheme}://{host}',
  description: "Your deployment; the defaults are the app's own port on this machine",
  variables: { scheme: { default: 'http', enum: ['http', 'https'] }, host: { default: 'localhost:3000' } },
};

export function buildOpenApi(manifest: RouteManifest, options: OpenApiOptions = {}) {
  const components = new Components(options.schemaModules ?? []);
  const examples = options.examples ?? recordedExamples;
  const errorResponses = new ErrorResponses(examples.errors);
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  const declared = new Set(manifest.map((r) => r.path));
  for (const { path, method, definition } of operationsOf(manifest)) {
    if (!definition) continue;
    for (const spec of specsOf(path, method, definition, declared)) {
      (paths[spec.path] ??= {})[method.toLowerCase()] = operation(spec, components, examples, errorResponses);
    }
    for (const tag of definition.tags) used.add(tag);
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const errorSchemas = Object.fromEntries(ERROR_CODES.map((code) => [errorSchemaName(code), errorSchema(code)]));
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Site Growth Platform API',
      version: '1.0.0',
      description:
        'Site-scoped sales and marketing automation. Every response carries `X-Request-ID`. ' +
        'Errors use `{success:false, error:{code, message, details?, request_id}}`. Paginated lists put ' +
        '`{total, limit, offset, has_more}` in `meta`. Rate-limited routes answer with `X-RateLimit-Limit`, ' +
        '`X-RateLimit-Remaining` and `X-RateLimit-Reset`; a 429 carries `Retry-After` (seconds). ' +
        'An /api path no route has answers 404 `NOT_FOUND`, a method its route lacks 405 `METHOD_NOT_ALLOWED` with `Allow`; ' +
        'while the database cannot be reached (a restart) every route answers 503 `SERVICE_UNAVAILABLE` with `Retry-After`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Site Growth Platform' },
    },
    // The served document names the origin it was asked from (app/api/openapi.json/route.ts).
    servers: [PLACEHOLDER_SERVER],
    tags: orderedTags(used),
    paths: sortedPaths,
    components: {
      securitySchemes: securitySchemes(),
      headers: HEADERS,
      responses: errorResponses.responses,
      schemas: { ...components.schemas, ...errorSchemas } as Record<string, Json>,
    },
  };
  document.components.schemas = referenced(document, document.components.schemas);
  return document;
}

/** Only the schemas the document refers to, directly or through another schema. */
function referenced(document: object, schemas: Record<string, Json>): Record<string, Json> {
  const keep = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      const m = k === '$ref' && typeof v === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(v) : null;
      if (m && !keep.has(m[1])) {
        keep.add(m[1]);
        visit(schemas[m[1]]);
      } else visit(v);
    }
  };
  visit({ ...document, components: { ...(document as { components: object }).components, schemas: {} } });
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => keep.has(name)));
}
