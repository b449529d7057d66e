import { describe, expect, it } from 'vitest';
import { clientIpFrom } from '@/lib/http/client-ip';

describe('clientIpFrom', () => {
  it.each([
    // [X-Forwarded-For, TRUST_PROXY, expected]
    [null, 0, 'unknown'],
    ['', 0, 'unknown'],
    ['203.0.113.9', 0, '203.0.113.9'], // `next start` fills the header with the socket address
    ['::ffff:203.0.113.9', 0, '203.0.113.9'],
    ['2001:DB8::1', 0, '2001:db8::1'],
    ['[2001:db8::1]:4711', 0, '2001:db8::1'],
    ['203.0.113.9:4711', 0, '203.0.113.9'],
    ['not-an-ip', 0, 'unknown'],
    ['198.51.100.1, 203.0.113.9', 1, '203.0.113.9'], // one load balancer appended the client
    ['spoofed, 198.51.100.1, 203.0.113.9', 2, '198.51.100.1'], // two proxies: the second entry from the right
    ['203.0.113.9', 2, '203.0.113.9'], // shorter than the proxy chain: the first entry
  ])('%s with TRUST_PROXY=%i → %s', (header, hops, expected) => {
    expect(clientIpFrom(header, hops)).toBe(expected);
  });
});
