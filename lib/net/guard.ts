import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { config } from '@/lib/core/config';

/**
 * The one way the product reaches a URL it did not choose itself (webhook endpoints, pages a
 * workflow analyzes, anything a user supplies) without letting it reach inside our network (SSRF):
 *
 * - only http(s), no credentials in the URL;
 * - the host is resolved once and EVERY address must be public: loopback, private, CGNAT,
 *   link-local (and so the cloud metadata 169.254.169.254), multicast, broadcast, unspecified,
 *   documentation/benchmark ranges and their IPv6 counterparts (ULA, fd00:ec2::254, link- and
 *   site-local, NAT64, 6to4 and Teredo, IPv4-mapped/-compatible/-translated forms) are refused;
 *   numeric spellings (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1) are normalised by the
 *   WHATWG URL parser before the check, and any host that is not a name or canonical address is
 *   refused;
 * - the connection goes to the checked address (a rebinding DNS server gets no second question);
 * - redirects are followed by hand, each hop checked again, and only when the caller asks;
 * - one deadline for the whole exchange and a cap on the body read.
 *
 * Hosts in OUTBOUND_ALLOW_HOSTS (and the older WORKFLOW_FETCH_ALLOWED_HOSTS) skip the address
 * check: for local development and tests (e.g. `127.0.0.1`) or a deliberate intranet target.
 */

export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request was allowed but did not complete: unresolvable host, connection error or timeout. */
export class OutboundFailedError extends Error {
  constructor(
    message: string,
    readonly reason: 'unresolved' | 'timeout' | 'network',
  ) {
    super(message);
    this.name = 'OutboundFailedError';
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated); IPv4-mapped is judged by its IPv4 (mappedIPv4)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address of any kind
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local, includes the AWS metadata fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:a.b.c.d` in any spelling), else null. */
function mappedIPv4(address: string): string | null {
  const groups = expandIPv6(address);
  if (!groups || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return null;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function expandIPv6(address: string): number[] | null {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const octets = tail[1].split('.').map(Number);
    text = text.slice(0, -tail[1].length) + `${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - rest.length).fill(0), ...rest] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** True only for a canonical IP address outside every refused range (names and odd spellings are false). */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6 || address.includes('%')) return false;
  const v4 = mappedIPv4(address);
  if (v4 !== null) return !blocked.check(v4, 'ipv4');
  return !blocked.check(address, 'ipv6');
}

const normalHost = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** Whether the operator allows this host (name or IP) although it resolves to a refused address. */
export function isAllowListedHost(host: string): boolean {
  const c = config();
  const wanted = normalHost(host);
  return c.OUTBOUND_ALLOW_HOSTS.includes(wanted) || c.WORKFLOW_FETCH_ALLOWED_HOSTS.includes(wanted);
}

function parseUrl(url: string | URL): URL {
  try {
    return new URL(url.toString());
  } catch {
    throw new OutboundRefusedError(`${String(url).slice(0, 200)} is not a URL`);
  }
}

/**
 * Resolves the URL's host and checks every address; throws OutboundRefusedError for a
 * non-http(s) URL, credentials in the URL, or a refused address. Returns the addresses to pin
 * the connection to.
 */
export async function checkOutboundUrl(url: string | URL): Promise<{ url: URL; addresses: string[] }> {
  const parsed = parseUrl(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new OutboundRefusedError(`only http and https URLs are reached, not ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new OutboundRefusedError('URLs with credentials are not reached');
  const host = normalHost(parsed.hostname);
  if (!host) throw new OutboundRefusedError('the URL has no host');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (/^[\d.]+$/.test(host) || /^0x/i.test(host)) throw new OutboundRefusedError(`${host} is not a canonical address`);
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new OutboundFailedError(`${host} could not be resolved`, 'unresolved');
    }
    if (addresses.length === 0) throw new OutboundFailedError(`${host} could not be resolved`, 'unresolved');
  }
  if (!isAllowListedHost(host)) {
    const bad = addresses.find((a) => !isPublicAddress(a));
    if (bad !== undefined)
      throw new OutboundRefusedError(`${host} resolves to a non-public address (${bad}); an operator may allow it in OUTBOUND_ALLOW_HOSTS`);
  }
  return { url: parsed, addresses };
}

/**
 * The same check for a host reached over another protocol (a site's IMAP server): resolved once,
 * every address public unless the host is allow-listed. Returns the address to connect to.
 */
export async function checkOutboundHost(host: string): Promise<string> {
  const bare = normalHost(host);
  const { addresses } = await checkOutboundUrl(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`);
  return addresses[0];
}

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed (each hop checked again); default 0: a 3xx is returned as it is. */
  maxRedirects?: number;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  truncated: boolean;
}

interface Hop {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function requestOnce(url: URL, address: string, hop: Hop, maxBytes: number, deadline: number): Promise<GuardedResponse> {
  return new Promise((resolve, reject) => {
    const family = isIP(address);
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const req = client.request(
      url,
      {
        method: hop.method,
        headers: hop.body !== undefined ? { ...hop.headers, 'content-length': String(Buffer.byteLength(hop.body)) } : hop.headers,
        // A fresh connection (no pooled socket to another address), no proxy, to the checked address.
        agent: false,
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else callback(null, address, family);
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks), url: url.toString(), truncated });
        };
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            finish();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', finish);
        res.on('error', (e) => (truncated ? finish() : fail(new OutboundFailedError(`${url.host}: ${e.message}`, 'network'))));
        res.on('close', () => (res.complete ? finish() : fail(new OutboundFailedError(`${url.host} closed the response early`, 'network'))));
      },
    );
    const timer = setTimeout(
      () => {
        fail(new OutboundFailedError(`${url.host} did not answer in time`, 'timeout'));
        req.destroy();
      },
      Math.max(1, deadline - performance.now()),
    );
    req.on('error', (e) => fail(new OutboundFailedError(`${url.host}: ${e.message}`, 'network')));
    req.end(hop.body);
  });
}

/**
 * One guarded HTTP request: pinned to the checked address, redirects followed by hand and
 * re-checked (maxRedirects, default 0 = not followed), one deadline (timeoutMs) for all hops,
 * body capped at maxBytes (truncated, flagged), no proxy from the environment.
 * Throws OutboundRefusedError (never connected) or OutboundFailedError.
 */
export async function guardedFetch(url: string | URL, init: GuardedRequestInit): Promise<GuardedResponse> {
  const deadline = performance.now() + init.timeoutMs;
  const maxRedirects = init.maxRedirects ?? 0;
  let hop: Hop = { method: (init.method ?? 'GET').toUpperCase(), headers: { ...(init.headers ?? {}) }, body: init.body };
  let current = parseUrl(url);
  for (let redirects = 0; ; redirects++) {
    const checked = await checkOutboundUrl(current);
    const res = await requestOnce(checked.url, checked.addresses[0], hop, init.maxBytes, deadline);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location || redirects >= maxRedirects) return res;
    const next = new URL(location, checked.url);
    // 307/308 repeat the request; the others become a GET without body (as browsers do).
    if (res.status !== 307 && res.status !== 308) hop = { method: hop.method === 'HEAD' ? 'HEAD' : 'GET', headers: hop.headers };
    if (next.origin !== checked.url.origin) {
      const { authorization: _a, cookie: _c, ...rest } = Object.fromEntries(Object.entries(hop.headers).map(([k, v]) => [k.toLowerCase(), v]));
      hop = { ...hop, headers: rest };
    }
    current = next;
  }
}
