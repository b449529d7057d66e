import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { PageSummary } from './activities';
import { WorkflowFailedError } from './definition';

/**
 * Fetches a page a workflow was asked to analyze without letting the URL reach inside our network
 * (SSRF): only http(s); the host is resolved once and every address checked against private,
 * loopback, link-local and other non-public ranges; the connection goes to the checked address
 * (no second lookup a rebinding DNS server could answer differently); redirects are followed by
 * hand and checked the same way; time and size are capped. Hosts the operator lists in
 * WORKFLOW_FETCH_ALLOWED_HOSTS are exempt from the address check (e.g. an intranet site).
 */
export interface FetchPolicy {
  allowedHosts: string[];
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 3;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) {
    // IPv4-mapped: judge the IPv4 address it carries.
    const v4 = address.slice(7);
    return isIP(v4) === 4 ? !blocked.check(v4, 'ipv4') : false;
  }
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const refuse = (message: string) => new WorkflowFailedError('URL_NOT_ALLOWED', message);

async function resolveAllowed(url: URL, policy: FetchPolicy): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`only http and https URLs can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw refuse('URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WorkflowFailedError('FETCH_FAILED', `${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new WorkflowFailedError('FETCH_FAILED', `${host} could not be resolved`);
  if (!policy.allowedHosts.includes(host)) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw refuse(`${host} resolves to a non-public address (${bad.address}); an operator may allow it in WORKFLOW_FETCH_ALLOWED_HOSTS`);
  }
  return addresses[0];
}

interface RawResponse {
  status: number;
  location?: string;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

function request(url: URL, target: { address: string; family: number }, policy: FetchPolicy, deadline: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'SiteGrowthPlatform/1.0 (+analyzeSite)', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
        // Connect to the address that was checked, whatever the resolver would answer now.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
        timeout: Math.max(1, deadline - performance.now()),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = policy.maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            res.destroy();
            finish();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
            truncated,
          });
        };
        res.on('end', finish);
        res.on('error', (e) => (truncated ? finish() : reject(e)));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('timeout')), Math.max(1, deadline - performance.now()));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end();
  });
}

export async function fetchPageSummary(rawUrl: string, policy: FetchPolicy): Promise<PageSummary> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse(`${rawUrl} is not a URL`);
  }
  // A monotonic deadline for the network calls; nothing of it is recorded.
  const deadline = performance.now() + policy.timeoutMs;
  for (let hop = 0; ; hop++) {
    const target = await resolveAllowed(url, policy);
    let res: RawResponse;
    try {
      res = await request(url, target, policy, deadline);
    } catch (error) {
      const timedOut = (error as Error).message === 'timeout';
      // A network error may pass (retried); a timeout is the page's answer.
      if (timedOut) throw new WorkflowFailedError('FETCH_FAILED', `${url.host} did not answer within ${policy.timeoutMs} ms`);
      throw new Error(`Fetching ${url.host} failed: ${(error as Error).message}`);
    }
    if (res.status >= 300 && res.status < 400 && res.location) {
      if (hop >= MAX_REDIRECTS) throw new WorkflowFailedError('FETCH_FAILED', `more than ${MAX_REDIRECTS} redirects`);
      url = new URL(res.location, url);
      continue;
    }
    if (res.status >= 400) throw new WorkflowFailedError('FETCH_FAILED', `${url.host} answered ${res.status}`);
    const html = res.body.toString('utf8');
    return { url: rawUrl, final_url: url.toString(), status: res.status, content_type: res.contentType, bytes: res.body.length, truncated: res.truncated, ...extract(html) };
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function text(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
      e[0] === '#' ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (ENTITIES[e.toLowerCase()] ?? m),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** Title, meta description, h1–h3 headings (first 50) and link count of an HTML page. */
export function extract(html: string): Pick<PageSummary, 'title' | 'description' | 'headings' | 'links'> {
  const body = html.replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body);
  let description: string | null = null;
  for (const tag of body.match(/<meta\b[^>]*>/gi) ?? []) {
    if (/\bname\s*=\s*["']?description["']?/i.test(tag) || /\bproperty\s*=\s*["']?og:description["']?/i.test(tag)) {
      const content = /\bcontent\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
      if (content) {
        description = text(content[2] ?? content[3] ?? '');
        break;
      }
    }
  }
  const headings = [...body.matchAll(/<h([1-3])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi)]
    .map((m) => ({ level: Number(m[1]), text: text(m[2]) }))
    .filter((h) => h.text)
    .slice(0, 50);
  return { title: title ? text(title[1]) || null : null, description: description || null, headings, links: (body.match(/<a\b[^>]*\bhref=/gi) ?? []).length };
}
