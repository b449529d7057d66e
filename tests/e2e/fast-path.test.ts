import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '@/lib/auth/api-key-format';
import { rawHttp } from '@/tests/helpers/raw-http';
import { startServer, type RunningServer } from './server';

/**
 * The ingestion routes, the leads tool and MCP answer the same through the server entry's fast path (FAST_PATH, the
 * default) and through Next (FAST_PATH=0): two servers of the same build, fresh data, the same
 * requests in the same order, and each answer compared — status, every header the app sets
 * (CORS, X-RateLimit-*, X-Request-ID, content type, caching) and the body. Values that cannot
 * agree between two databases (ids, timestamps, timings) are compared by shape: each server's ids
 * are numbered in order of appearance, so the same entity must come back in the same places.
 *
 * Headers that are transport, not the app's answer, are left out: Date, Connection, Keep-Alive,
 * and Content-Length/Transfer-Encoding (Next streams every body); so are the tokens Next adds to
 * Vary for its own router (rsc, next-router-*), which no API client sends.
 */
const base = inject('e2eBaseUrl');
const FIRST_PORT = Number(process.env.E2E_SPLIT_PORT ?? Number(process.env.E2E_PORT ?? 3600) + 50) + 1;
const DOMAIN = 'shop.example.com';
const ORIGIN = `https://${DOMAIN}`;
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const NEXT_VARY = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMES = /(_at|_time|time|timestamp|^duration|^ttl(_remaining)?)$/;

interface Tenant {
  siteId: string;
  key: string;
  readKey: string;
  revokedKey: string;
  token: string;
  otherSiteId: string;
  otherKey: string;
}

interface Target {
  name: string;
  server: RunningServer;
  tenant: Tenant;
  /** Values of earlier answers later requests name (session, visitor and lead ids). */
  saved: Record<string, string>;
  ids: Map<string, string>;
}

interface Step {
  method: string;
  path: (t: Target) => string;
  headers?: (t: Target) => Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: (t: Target) => unknown;
  /** Keeps values of the answer for later steps. */
  save?: (t: Target, body: any) => void;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function api(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function tenantOf(url: string): Promise<Tenant> {
  const email = `fast-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  await api(url, 'POST', '/api/auth/signup', { email, password });
  const token = (await api(url, 'POST', '/api/auth/token', { email, password })).data.token;
  const auth = { authorization: `Bearer ${token}` };
  const site = async (domain: string) => (await api(url, 'POST', '/api/visitors/sites', { name: domain, domain }, auth)).data.id as string;
  const key = async (siteId: string, scopes: string[]) =>
    (await api(url, 'POST', '/api/keys', { name: 'k', scopes, site_id: siteId, expirationDays: 1 }, auth)).data;
  const siteId = await site(DOMAIN);
  const otherSiteId = await site('other.example.com');
  const revoked = await key(siteId, ['read', 'write']);
  await api(url, 'DELETE', `/api/keys?site_id=${siteId}&id=${revoked.id}`, undefined, auth);
  return {
    siteId,
    key: (await key(siteId, ['read', 'write'])).apiKey,
    readKey: (await key(siteId, ['read'])).apiKey,
    revokedKey: revoked.apiKey,
    token,
    otherSiteId,
    otherKey: (await key(otherSiteId, ['read', 'write'])).apiKey,
  };
}

/** Ids numbered per server in order of first appearance; times and timings by type only (also inside MCP's JSON text). */
function normalize(t: Target, value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (TIMES.test(key) && !Number.isNaN(Date.parse(value))) return '<time>';
    // An MCP tool result's text content is the REST body as JSON: compared as that body.
    if (key === 'text' && value.startsWith('{')) return normalize(t, JSON.parse(value));
    // A workflow id carries its start time and a random suffix: numbered as ids are.
    if (/^(workflowId|workflow_id|event_workflow_id)$/.test(key)) {
      if (!t.ids.has(value)) t.ids.set(value, `<workflow${t.ids.size}>`);
      return t.ids.get(value)!;
    }
    return value.replace(UUID, (id) => {
      const lower = id.toLowerCase();
      if (!t.ids.has(lower)) t.ids.set(lower, `<id${t.ids.size}>`);
      return t.ids.get(lower)!;
    });
  }
  if (typeof value === 'number' && (TIMES.test(key) || key === 'retry_after' || key === 'reset')) return '<number>';
  if (Array.isArray(value)) return value.map((v) => normalize(t, v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(t, v, k)]));
  return value;
}

async function send(t: Target, step: Step, requestId: string): Promise<Answer & { raw: any }> {
  const body = step.body?.(t);
  const res = await fetch(t.server.url + step.path(t), {
    method: step.method,
    headers: {
      'x-request-id': requestId,
      ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
      ...step.headers?.(t),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  let raw: any = text;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (t.js, Next's own pages): compared as text
  }
  if (res.ok) step.save?.(t, raw);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (TRANSPORT.has(name)) return;
    if (name === 'vary')
      value = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => !NEXT_VARY.has(v.toLowerCase()))
        .join(', ');
    if (value) headers[name] = name === 'x-request-id' ? (normalize(t, value) as string) : value;
  });
  return { status: res.status, headers, body: normalize(t, raw), raw };
}

/** The same step on both servers; the answers must agree. Returns the fast path's. */
async function both(targets: Target[], step: Step, label: string): Promise<Answer> {
  const requestId = `fp-${label.replace(/[^A-Za-z0-9._:-]/g, '-')}`.slice(0, 128);
  const [fast, next] = [await send(targets[0], step, requestId), await send(targets[1], step, requestId)];
  const a = { ...fast.headers };
  const b = { ...next.headers };
  // Counters of each server's own fixed windows: a pair of requests that straddled a window's turn
  // leaves the two counts one apart for the rest of the next window, so only their presence is
  // compared here (the counting itself: the rate limit test below).
  for (const h of [a, b]) {
    if (h['retry-after']) h['retry-after'] = '<seconds>';
    if (h['x-ratelimit-reset']) h['x-ratelimit-reset'] = '<time>';
    if (h['x-ratelimit-remaining']) h['x-ratelimit-remaining'] = '<count>';
  }
  expect({ status: fast.status, headers: a, body: fast.body }, label).toEqual({ status: next.status, headers: b, body: next.body });
  return { status: fast.status, headers: fast.headers, body: fast.raw };
}

const withKey = (t: Target) => ({ 'x-sa-api-key': t.tenant.key });
const fromSite = () => ({ origin: ORIGIN });
const session = (t: Target) => t.saved.session;

/** The visitor flows: sessions new and returning, track, identify, end, from a server and from the site's pages. */
const FLOWS: [string, Step, number][] = [
  [
    'session create with a key',
    {
      method: 'POST',
      path: () => '/api/visitors/session',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, fingerprint: 'fp-1', url: `${ORIGIN}/` }),
      save: (t, b) => Object.assign(t.saved, { session: b.data.session_id, visitor: b.data.visitor_id }),
    },
    201,
  ],
  [
    'session create, returning fingerprint',
    { method: 'POST', path: () => '/api/visitors/session', headers: withKey, body: (t) => ({ site_id: t.tenant.siteId, fingerprint: 'fp-1' }) },
    200,
  ],
  [
    'session create from the site origin',
    {
      method: 'POST',
      path: () => '/api/visitors/session',
      headers: fromSite,
      body: (t) => ({ site_id: t.tenant.siteId, fingerprint: 'fp-2', url: `${ORIGIN}/a` }),
      save: (t, b) => (t.saved.browserSession = b.data.session_id),
    },
    201,
  ],
  [
    'session update',
    {
      method: 'PUT',
      path: () => '/api/visitors/session',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), page_views: 2, current_url: `${ORIGIN}/b` }),
    },
    200,
  ],
  [
    'track with a key',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), event_type: 'pageview', url: `${ORIGIN}/b` }),
    },
    201,
  ],
  [
    'track from the site origin',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: fromSite,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: t.saved.browserSession, event_type: 'click', url: `${ORIGIN}/a` }),
    },
    201,
  ],
  [
    'track, unknown session',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: '00000000-0000-4000-8000-000000000000', event_type: 'click' }),
    },
    404,
  ],
  [
    'identify',
    {
      method: 'POST',
      path: () => '/api/visitors/identify',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), email: 'ada@example.com', firstName: 'Ada' }),
      save: (t, b) => (t.saved.lead = b.data.lead_id ?? b.data.lead?.id),
    },
    200,
  ],
  [
    'session identify',
    {
      method: 'POST',
      path: (t) => `/api/visitors/session/${t.saved.browserSession}/identify`,
      headers: fromSite,
      body: (t) => ({ site_id: t.tenant.siteId, lead_id: t.saved.lead }),
    },
    200,
  ],
  [
    'session read',
    { method: 'GET', path: (t) => `/api/visitors/session?site_id=${t.tenant.siteId}&session_id=${session(t)}`, headers: withKey },
    200,
  ],
  [
    'session end, beacon body',
    {
      method: 'POST',
      path: () => '/api/visitors/session/end',
      headers: () => ({ origin: ORIGIN, 'content-type': 'text/plain;charset=UTF-8' }),
      body: (t) => JSON.stringify({ site_id: t.tenant.siteId, session_id: t.saved.browserSession }),
    },
    200,
  ],
  [
    'session end by id',
    { method: 'POST', path: (t) => `/api/visitors/session/${session(t)}/end`, headers: withKey, body: (t) => ({ site_id: t.tenant.siteId }) },
    200,
  ],
  [
    'track, closed session',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), event_type: 'click' }),
    },
    409,
  ],
  ['the snippet', { method: 'GET', path: () => '/t.js' }, 200],
];

const toolKey = (key: (t: Target) => string) => (t: Target) => ({ 'x-api-key': key(t) });
/** The tenant's key of that name, as x-api-key. */
const tenantKey = (name: 'key' | 'readKey' | 'revokedKey') => toolKey((t) => t.tenant[name]);
const mcpCall =
  (siteId: (t: Target) => string, args: Record<string, unknown> = {}) =>
  (t: Target) => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'getLeads', arguments: { site_id: siteId(t), ...args } },
  });
const ownSite = (t: Target) => t.tenant.siteId;

const leadsTool = (headers: Step['headers'], body: Step['body']): Step => ({
  method: 'POST',
  path: () => '/api/agents/tools/leads/get',
  headers,
  body,
});
const mcp = (headers: Step['headers'], body: Step['body']): Step => ({ method: 'POST', path: () => '/api/mcp', headers, body });

/** The reads on the fast path: the leads list tool and the MCP server, answered and refused (after FLOWS: a lead exists). */
const READS: [string, Step, number][] = [
  ['leads tool, search', leadsTool(tenantKey('key'), (t) => ({ site_id: t.tenant.siteId, search: 'ada', limit: 5 })), 200],
  [
    'leads tool, sorted by name, read-only key as Bearer',
    leadsTool(
      (t) => ({ authorization: `Bearer ${t.tenant.readKey}` }),
      (t) => ({ site_id: t.tenant.siteId, search: 'example', sort_by: 'name', sort_order: 'asc' }),
    ),
    200,
  ],
  ['leads tool, no key', leadsTool(undefined, (t) => ({ site_id: t.tenant.siteId })), 401],
  ['leads tool, a revoked key', leadsTool(tenantKey('revokedKey'), (t) => ({ site_id: t.tenant.siteId })), 401],
  ["leads tool, another site's id", leadsTool(tenantKey('key'), (t) => ({ site_id: t.tenant.otherSiteId })), 403],
  ['leads tool, an unknown field', leadsTool(tenantKey('key'), (t) => ({ site_id: t.tenant.siteId, admin: true })), 400],
  [
    'leads tool, invalid JSON',
    leadsTool(
      (t) => ({ 'x-api-key': t.tenant.key, 'content-type': 'application/json' }),
      () => '{"site_id":',
    ),
    400,
  ],
  ['MCP getLeads', mcp(tenantKey('key'), mcpCall(ownSite, { search: 'ada' })), 200],
  ['MCP tools/list', mcp(tenantKey('readKey'), () => ({ jsonrpc: '2.0', id: 'l', method: 'tools/list' })), 200],
  [
    "MCP getLeads, another site's id",
    { method: 'POST', path: () => '/api/mcp', headers: tenantKey('key'), body: mcpCall((t) => t.tenant.otherSiteId) },
    200,
  ],
  ['MCP, an unknown tool', mcp(tenantKey('key'), () => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'dropLeads' } })), 200],
  ['MCP, a notification', mcp(tenantKey('key'), () => ({ jsonrpc: '2.0', method: 'notifications/initialized' })), 202],
  ['MCP, no key', { method: 'POST', path: () => '/api/mcp', body: mcpCall(ownSite) }, 401],
  [
    'MCP, a session token instead of a key',
    { method: 'POST', path: () => '/api/mcp', headers: (t) => ({ authorization: `Bearer ${t.tenant.token}` }), body: mcpCall(ownSite) },
    401,
  ],
  ['MCP, not JSON-RPC', mcp(tenantKey('key'), () => ({ hello: 1 })), 400],
  ['MCP, an unsupported protocol version', mcp((t) => ({ 'x-api-key': t.tenant.key, 'mcp-protocol-version': '1999-01-01' }), mcpCall(ownSite)), 400],
];

const startStandUp = (
  headers: (t: Target) => Record<string, string>,
  body: (t: Target) => unknown = (t) => ({ site_id: t.tenant.siteId }),
): Step => ({
  method: 'POST',
  path: () => '/api/workflow/dailyStandUp',
  headers,
  body,
});
const retryKey = (t: Target) => ({ ...toolKey((x) => x.tenant.key)(t), 'idempotency-key': 'stand-up-1' });

/** Workflow starts on the fast path: the bare 202 envelope, an Idempotency-Key's retry, the errors with their top-level `code`. */
const WORKFLOW_STARTS: [string, Step, number][] = [
  ['workflow start', startStandUp(tenantKey('key')), 202],
  ['workflow start with a body of its own', startStandUp(tenantKey('key'), (t) => ({ site_id: t.tenant.siteId, window_hours: 48 })), 202],
  ['workflow start with an Idempotency-Key', startStandUp(retryKey), 202],
  ['workflow start, the same Idempotency-Key again: the same run', startStandUp(retryKey), 202],
  [
    'workflow start, an Idempotency-Key that is not printable ASCII',
    startStandUp((t) => ({ ...toolKey((x) => x.tenant.key)(t), 'idempotency-key': 'a b' })),
    400,
  ],
  [
    'workflow start, an unknown workflow',
    { method: 'POST', path: () => '/api/workflow/noSuchFlow', headers: tenantKey('key'), body: (t) => ({ site_id: t.tenant.siteId }) },
    404,
  ],
  ['workflow start, no site_id', startStandUp(tenantKey('key'), () => ({})), 400],
  ['workflow start, an unknown field', startStandUp(tenantKey('key'), (t) => ({ site_id: t.tenant.siteId, admin: true })), 400],
  [
    'workflow start, invalid JSON',
    startStandUp(
      (t) => ({ ...toolKey((x) => x.tenant.key)(t), 'content-type': 'application/json' }),
      () => '{"site_id":',
    ),
    400,
  ],
  ["workflow start, another site's id", startStandUp(tenantKey('key'), (t) => ({ site_id: t.tenant.otherSiteId })), 403],
  ['workflow start, a read-only key', startStandUp(tenantKey('readKey')), 403],
  ['workflow start, a revoked key', startStandUp(tenantKey('revokedKey')), 401],
  ['workflow start, no key', startStandUp(() => ({})), 401],
  ['workflow start, a session token instead of a key', startStandUp((t) => ({ authorization: `Bearer ${t.tenant.token}` })), 401],
  [
    'a change event (the static path beside the dynamic one)',
    {
      method: 'POST',
      path: () => '/api/workflow/webhook',
      headers: tenantKey('key'),
      body: (t) => ({ type: 'INSERT', table: 'leads', schema: 'public', record: { site_id: t.tenant.siteId } }),
    },
    202,
  ],
  ['a preflight of the workflow start', { method: 'OPTIONS', path: () => '/api/workflow/dailyStandUp', headers: () => ({ origin: ORIGIN }) }, 204],
];

const PREFLIGHT_PATHS = [
  '/api/visitors/session',
  '/api/visitors/session/end',
  '/api/visitors/track',
  '/api/visitors/identify',
  '/api/visitors/session/00000000-0000-4000-8000-000000000000/end',
  '/api/visitors/session/00000000-0000-4000-8000-000000000000/identify',
];

/** The auth matrix rows of the ingestion routes: each credential case on each route. */
const ROUTES: [string, string, (t: Target, siteId: string) => unknown][] = [
  ['POST', '/api/visitors/session', (_t, siteId) => ({ site_id: siteId, fingerprint: 'fp-auth' })],
  ['POST', '/api/visitors/track', (t, siteId) => ({ site_id: siteId, session_id: session(t), event_type: 'click' })],
  ['POST', '/api/visitors/identify', (t, siteId) => ({ site_id: siteId, visitor_id: t.saved.visitor, email: 'grace@example.com' })],
  ['POST', '/api/visitors/session/end', (t, siteId) => ({ site_id: siteId, session_id: session(t) })],
];
const CREDENTIALS: [string, (t: Target) => Record<string, string>, (t: Target) => string][] = [
  ['no key', () => ({}), (t) => t.tenant.siteId],
  ['a malformed key', () => ({ 'x-sa-api-key': 'not-a-key' }), (t) => t.tenant.siteId],
  ['a revoked key', (t) => ({ 'x-sa-api-key': t.tenant.revokedKey }), (t) => t.tenant.siteId],
  ['a read-only key', (t) => ({ 'x-sa-api-key': t.tenant.readKey }), (t) => t.tenant.siteId],
  ['a session token instead of a key', (t) => ({ authorization: `Bearer ${t.tenant.token}` }), (t) => t.tenant.siteId],
  ["another site's key", (t) => ({ 'x-sa-api-key': t.tenant.otherKey }), (t) => t.tenant.siteId],
  ["another site's id", (t) => ({ 'x-sa-api-key': t.tenant.key }), (t) => t.tenant.otherSiteId],
  ['an origin not registered for the site', () => ({ origin: 'https://evil.example.net' }), (t) => t.tenant.siteId],
  ["the site's origin naming another site", () => ({ origin: ORIGIN }), (t) => t.tenant.otherSiteId],
];

/**
 * Hostile input: malformed bodies, paths and methods; each answered alike. The ingestion routes
 * answer an error envelope, never a 500; what is not theirs (`NEXT_ANSWERS`: a trailing slash,
 * HEAD) both servers hand to Next's router, and only the sameness of its answer is asserted here.
 * An /api path that does not decode (`UNDECODABLE`) or a method the route lacks is the server
 * entry's own answer.
 */
const NEXT_ANSWERS = new Set(['a trailing slash', 'HEAD of the snippet']);
const UNDECODABLE = ['a path segment that does not decode', 'an undecodable site id', 'an undecodable visitors segment'];
const HOSTILE: [string, Step][] = [
  [
    'invalid JSON',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: () => ({ 'x-sa-api-key': '', 'content-type': 'application/json' }),
      body: () => '{"site_id":',
    },
  ],
  [
    'invalid JSON with a key',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: (t) => ({ ...withKey(t), 'content-type': 'application/json' }),
      body: () => '{"site_id":',
    },
  ],
  ['an array body', { method: 'POST', path: () => '/api/visitors/session', headers: withKey, body: () => [1, 2] }],
  [
    'a null body',
    {
      method: 'POST',
      path: () => '/api/visitors/session',
      headers: (t) => ({ ...withKey(t), 'content-type': 'application/json' }),
      body: () => 'null',
    },
  ],
  ['no body', { method: 'POST', path: () => '/api/visitors/track', headers: withKey }],
  ['site_id not a UUID', { method: 'POST', path: () => '/api/visitors/session', headers: withKey, body: () => ({ site_id: 'x' }) }],
  [
    'an unknown field',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), event_type: 'click', admin: true }),
    },
  ],
  [
    'an unknown event type',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), event_type: 'drop table' }),
    },
  ],
  [
    'prototype keys',
    {
      method: 'POST',
      path: () => '/api/visitors/session',
      headers: (t) => ({ ...withKey(t), 'content-type': 'application/json' }),
      body: (t) => `{"site_id":"${t.tenant.siteId}","__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}`,
    },
  ],
  [
    'an XML body',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: (t) => ({ ...withKey(t), 'content-type': 'application/xml' }),
      body: () => '<track/>',
    },
  ],
  [
    'a body over the size cap',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: session(t), event_type: 'custom', custom_data: { pad: 'x'.repeat(2_000_000) } }),
    },
  ],
  [
    'a session id that is not a UUID',
    { method: 'POST', path: () => '/api/visitors/session/not-a-uuid/end', headers: withKey, body: (t) => ({ site_id: t.tenant.siteId }) },
  ],
  [
    'a path segment that does not decode',
    { method: 'POST', path: () => '/api/visitors/session/%E0%A4%A/end', headers: withKey, body: (t) => ({ site_id: t.tenant.siteId }) },
  ],
  ['an undecodable site id', { method: 'GET', path: () => '/api/sites/%E0%A4%A/keys', headers: withKey }],
  ['an undecodable visitors segment', { method: 'GET', path: () => '/api/visitors/%ff', headers: withKey }],
  ['a trailing slash', { method: 'POST', path: () => '/api/visitors/track/', headers: withKey, body: () => ({}) }],
  ['a method the route does not have', { method: 'DELETE', path: () => '/api/visitors/track', headers: withKey }],
  ['HEAD of the snippet', { method: 'HEAD', path: () => '/t.js' }],
  ['a query string on the snippet', { method: 'GET', path: () => '/t.js?v=1&site=x' }],
  [
    'a request id that is not kept',
    { method: 'POST', path: () => '/api/visitors/track', headers: (t) => ({ ...withKey(t), 'x-request-id': 'a b'.repeat(100) }), body: () => ({}) },
  ],
  [
    'client address headers',
    {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: (t) => ({ ...withKey(t), 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.8' }),
      body: () => ({}),
    },
  ],
];

describe.skipIf(!base)('the fast path and Next answer alike', () => {
  const targets: Target[] = [];

  beforeAll(async () => {
    const [fast, next] = await Promise.all([
      startServer(FIRST_PORT, { FAST_PATH: '1' }, 'server-fast-path'),
      startServer(FIRST_PORT + 1, { FAST_PATH: '0' }, 'server-next-path'),
    ]);
    for (const [name, server] of [
      ['fast path', fast],
      ['next', next],
    ] as const)
      targets.push({ name, server, tenant: await tenantOf(server.url), saved: {}, ids: new Map() });
  }, 600_000);
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.server.stop()));
  });

  it('visitor flows: status, headers and bodies', async () => {
    for (const [label, step, status] of FLOWS) {
      const answer = await both(targets, step, label);
      expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(status);
    }
  });

  it('the leads tool and MCP: status, headers and bodies', async () => {
    for (const [label, step, status] of READS) {
      const answer = await both(targets, step, label);
      expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(status);
    }
  });

  it('workflow starts: status, headers and bodies', async () => {
    for (const [label, step, status] of WORKFLOW_STARTS) {
      const answer = await both(targets, step, label);
      expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(status);
      const body = answer.body as { code?: string; error?: { code: string } };
      if (status >= 400) expect(body.code, label).toBe(body.error?.code);
    }
  });

  it('CORS preflight of every ingestion route, for a registered origin, another origin and none', async () => {
    for (const path of PREFLIGHT_PATHS) {
      for (const origin of [ORIGIN, 'https://evil.example.net', undefined]) {
        const step: Step = {
          method: 'OPTIONS',
          path: () => path,
          headers: () => ({ ...(origin ? { origin } : {}), 'access-control-request-method': 'POST' }),
        };
        const answer = await both(targets, step, `OPTIONS ${path} from ${origin}`);
        expect(answer.status).toBe(204);
        expect(answer.headers['access-control-allow-origin']).toBe(origin === ORIGIN ? ORIGIN : undefined);
      }
    }
  });

  it('auth matrix rows of the ingestion routes', async () => {
    for (const [method, path, body] of ROUTES) {
      for (const [label, headers, siteOf] of CREDENTIALS) {
        const answer = await both(targets, { method, path: () => path, headers, body: (t) => body(t, siteOf(t)) }, `${method} ${path} with ${label}`);
        expect([401, 403], `${method} ${path} with ${label}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      }
    }
  });

  it('hostile input', async () => {
    for (const [label, step] of HOSTILE) {
      const answer = await both(targets, step, label);
      if (!NEXT_ANSWERS.has(label)) expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
    }
  });

  it('an /api path that does not decode: 400 INVALID_REQUEST in the error envelope, with the request id', async () => {
    for (const label of UNDECODABLE) {
      const step = HOSTILE.find(([l]) => l === label)![1];
      const answer = await both(targets, step, label);
      const requestId = `fp-${label.replace(/[^A-Za-z0-9._:-]/g, '-')}`;
      expect(answer.status, label).toBe(400);
      expect(answer.headers['x-request-id']).toBe(requestId);
      expect(answer.body).toEqual({
        success: false,
        error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/percent-encoding/), request_id: requestId },
      });
    }
  });

  it('the server entry at its edges: the same 4xx on both paths', async () => {
    const edges: [string, string, number][] = [
      ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['GET *', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['TRACE', 'TRACE /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 405],
      ['a console path that does not decode', 'GET /console/sites/%ff HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['dot segments', 'POST /api/visitors/session/../end HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}', 400],
      ['no route', 'GET /api/nothing-here HTTP/1.1\r\nHost: x\r\n\r\n', 404],
      [
        'a multipart post to no route',
        'POST /api/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 42\r\n\r\n--b\r\nContent-Disposition: form-data\r\n\r\n--b--',
        404,
      ],
      ['a method the route lacks', 'DELETE /api/visitors/track HTTP/1.1\r\nHost: x\r\n\r\n', 405],
    ];
    for (const [label, bytes, status] of edges) {
      const [fast, next] = await Promise.all(targets.map(async (t) => (await rawHttp(Number(new URL(t.server.url).port), bytes))[0]));
      expect(fast.status, label).toBe(status);
      const unId = (text: string) => text.replace(UUID, '<id>');
      const { date: _a, ...fastHeaders } = Object.fromEntries(Object.entries(fast.headers).map(([k, v]) => [k, unId(v)]));
      const { date: _b, ...nextHeaders } = Object.fromEntries(Object.entries(next.headers).map(([k, v]) => [k, unId(v)]));
      expect({ ...next, headers: nextHeaders, body: unId(next.body) }, label).toEqual({ ...fast, headers: fastHeaders, body: unId(fast.body) });
    }
  });

  it('after a 413 on a chunked body the connection answers the next request, on both paths (no parse error, no reset)', async () => {
    // Chunks past the body cap (MAX_BODY_BYTES, 1 MB by default), then a second request on the same connection.
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 24 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const probes: [string, (t: Target) => string][] = [
      // Served fast on the first server, by Next on the other; then a route Next serves on both.
      [
        'leads/get',
        (t) => `POST /api/agents/tools/leads/get HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.tenant.key}\r\nContent-Type: application/json\r\n`,
      ],
      [
        'leads/create',
        (t) =>
          `POST /api/agents/tools/leads/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.tenant.key}\r\nContent-Type: application/json\r\n`,
      ],
    ];
    for (const [label, head] of probes) {
      for (const t of targets) {
        const bytes = `${head(t)}Transfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`;
        // rawHttp resolves with fewer answers when the server closes the connection, and rejects on a reset;
        // a hung connection fails by the test's timeout.
        const answers = await rawHttp(Number(new URL(t.server.url).port), bytes, 2);
        expect(
          answers.map((a) => [a.status, a.status === 413 ? JSON.parse(a.body).error.code : JSON.parse(a.body).data]),
          `${label} on ${t.name}`,
        ).toEqual([
          [413, 'PAYLOAD_TOO_LARGE'],
          [200, { status: 'ok' }],
        ]);
      }
    }
  });

  it('the visitor rate limit: the same counts, and the same 429 once the client address is over it', async () => {
    // Up to the per-IP limit (60 a minute) and over it. Each server counts in fixed one-minute windows
    // of its own, which a request pair cannot keep in step across a window's turn (the first request
    // counted in one window, the second in the next): each server is driven over the limit on its
    // own, and what it answered is compared with the other's.
    const step: Step = {
      method: 'POST',
      path: () => '/api/visitors/track',
      headers: withKey,
      body: (t) => ({ site_id: t.tenant.siteId, session_id: t.saved.browserSession, event_type: 'click' }),
    };
    const bursts: Answer[][] = [];
    for (const t of targets) {
      const answers: Answer[] = [];
      for (let i = 0; i < 130 && answers.at(-1)?.status !== 429; i++) answers.push(await send(t, step, 'fp-burst'));
      bursts.push(answers);
    }
    const [fast, next] = bursts.map((answers) => {
      const limited = answers.at(-1)!;
      expect(limited.status).toBe(429);
      // In the window that ran out, each request counted one: remaining falls by one per request.
      const window = answers.filter((a) => a.headers['x-ratelimit-reset'] === limited.headers['x-ratelimit-reset']);
      const remaining = window.map((a) => Number(a.headers['x-ratelimit-remaining']));
      expect(remaining.slice(0, -1)).toEqual(remaining.slice(0, -1).map((_, i) => remaining[0] - i));
      expect(remaining.slice(-2)).toEqual([0, 0]);
      // The last counted request and the refused one, without the window's own times.
      return answers.slice(-2).map(({ status, headers, body }) => {
        const { 'x-ratelimit-reset': _reset, 'retry-after': _after, ...rest } = headers;
        return { status, headers: rest, body };
      });
    });
    expect(fast).toEqual(next);
  });
});

describe.skipIf(!base || !existsSync('/proc/self/fd'))('one embedded database per process, whichever path opens it', () => {
  // WORKERS=off: the web process holds PGlite itself, so a second open of the data directory in
  // it would be a second PGlite on the same files. The fast path opens it here, with its first request.
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(FIRST_PORT + 2, { FAST_PATH: '1', WORKERS: 'off' }, 'server-fast-path-embedded');
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('the fast path and Next share one database handle: one set of open data files, and each sees the other’s writes', async () => {
    const refused = await fetch(`${server.url}/api/visitors/track`, {
      method: 'POST',
      headers: { 'x-sa-api-key': generateApiKey('key'), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401); // the fast path answered a well-formed unknown key after looking it up: the database is open
    const tenant = await tenantOf(server.url); // through Next
    const started = await api(
      server.url,
      'POST',
      '/api/visitors/session',
      { site_id: tenant.siteId, fingerprint: 'fp-shared' },
      { 'x-sa-api-key': tenant.key },
    );
    const listed = await api(server.url, 'GET', `/api/visitors/${started.data.visitor_id}/sessions?site_id=${tenant.siteId}`, undefined, {
      'x-sa-api-key': tenant.key,
    });
    expect(listed.data.map((s: { session_id: string }) => s.session_id)).toEqual([started.data.session_id]);
    const open = readdirSync(`/proc/${server.pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${server.pid}/fd/${fd}`)];
      } catch {
        return []; // closed meanwhile
      }
    });
    const dataFiles = open.filter((file) => file.startsWith(`${server.dataDir}/pglite/`));
    expect(dataFiles.filter((file) => file.includes('/pg_wal/'))).toHaveLength(1);
    expect(dataFiles.filter((file, i) => dataFiles.indexOf(file) !== i)).toEqual([]);
  });
});
