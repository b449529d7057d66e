import { describe, expect, it } from 'vitest';
import { begin } from '@/lib/http/pipeline';

// The fast path hands the pipeline the request target as the client sent it; usage records and logs
// must name the same path, and routes read the same query, as under Next (the URL parser's reading).
const request = (url: string) => ({ url, method: 'GET', headers: new Headers() }) as unknown as Request;

describe("the exchange's path and query", () => {
  it('read as the URL parser reads them, plain or not', () => {
    for (const url of [
      'http://localhost/api/visitors/track',
      'http://localhost/api/visitors/session?session_id=abc&site_id=x%20y',
      'http://localhost/api/visitors/session?',
      'http://localhost/api/visitors/session?a=1&a=2&b=%ZZ',
      'http://localhost/api/visitors/session/a%20b/end',
      'http://localhost/api/visitors/./session',
      'http://localhost/api/visitors/x/../session',
      'http://localhost/api/visitors/%2e%2E/session',
      'http://localhost/api/visitors/.hidden',
      'http://localhost/api/visitors/se ss"ion<>',
      'http://localhost/api/visitors/séance?q=é',
      'http://localhost/api/visitors\\session',
      'http://localhost/api/visitors/session#frag',
      'http://localhost/api/visitors/session?x=1#frag',
      'http://localhost?x=/a',
      'http://localhost',
      'http://app.example.com:8080/api/mcp?x=a b',
    ]) {
      const parsed = new URL(url);
      const ex = begin(request(url));
      expect({ pathname: ex.pathname, query: Object.fromEntries(new URLSearchParams(ex.search)) }, url).toEqual({
        pathname: parsed.pathname,
        query: Object.fromEntries(parsed.searchParams),
      });
    }
  });
});
