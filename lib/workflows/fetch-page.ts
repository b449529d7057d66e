import { guardedFetch, OutboundFailedError, OutboundRefusedError } from '@/lib/net/guard';
import type { PageSummary } from './activities';
import { WorkflowFailedError } from './definition';

/**
 * Fetches a page a workflow was asked to analyze through the SSRF guard (lib/net/guard.ts):
 * checked and pinned addresses, up to 3 redirects each checked again, time and size capped.
 */
export interface FetchPolicy {
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 3;

export async function fetchPageSummary(rawUrl: string, policy: FetchPolicy): Promise<PageSummary> {
  let res;
  try {
    res = await guardedFetch(rawUrl, {
      method: 'GET',
      headers: { 'user-agent': 'SiteGrowthPlatform/1.0 (+analyzeSite)', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
      timeoutMs: policy.timeoutMs,
      maxBytes: policy.maxBytes,
      maxRedirects: MAX_REDIRECTS,
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new WorkflowFailedError('URL_NOT_ALLOWED', error.message);
    if (error instanceof OutboundFailedError) {
      // A timeout or an unknown host is the page's answer; a network error may pass (retried).
      if (error.reason === 'timeout') throw new WorkflowFailedError('FETCH_FAILED', `${error.message} (${policy.timeoutMs} ms)`);
      if (error.reason === 'unresolved') throw new WorkflowFailedError('FETCH_FAILED', error.message);
      throw new Error(`Fetching failed: ${error.message}`);
    }
    throw error;
  }
  if (res.status >= 300 && res.status < 400 && res.headers.location)
    throw new WorkflowFailedError('FETCH_FAILED', `more than ${MAX_REDIRECTS} redirects`);
  if (res.status >= 400) throw new WorkflowFailedError('FETCH_FAILED', `${new URL(res.url).host} answered ${res.status}`);
  const html = res.body.toString('utf8');
  return {
    url: rawUrl,
    final_url: res.url,
    status: res.status,
    content_type: res.headers['content-type'] ?? '',
    bytes: res.body.length,
    truncated: res.truncated,
    ...extract(html),
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function text(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : (ENTITIES[e.toLowerCase()] ?? m),
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
  return {
    title: title ? text(title[1]) || null : null,
    description: description || null,
    headings,
    links: (body.match(/<a\b[^>]*\bhref=/gi) ?? []).length,
  };
}
