import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { checkOutboundUrl, guardedFetch, isAllowListedHost, isPublicAddress, OutboundRefusedError } from '@/lib/net/guard';

/** A local server that counts every TCP connection made to it: a refused URL must make none. */
async function countingServer(handler: http.RequestListener) {
  const server = http.createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const setAllowList = (value: string | undefined) => {
  if (value === undefined) delete process.env.OUTBOUND_ALLOW_HOSTS;
  else process.env.OUTBOUND_ALLOW_HOSTS = value;
  delete process.env.WORKFLOW_FETCH_ALLOWED_HOSTS;
  resetConfig();
};

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:2800:220:1::1', true],
    ['::ffff:93.184.216.34', true],
    ['::ffff:5db8:d822', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['100.100.100.200', false],
    ['169.254.169.254', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['0.0.0.0', false],
    ['198.18.0.1', false],
    ['192.0.2.10', false],
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fec0::1', false],
    ['fd00:ec2::254', false],
    ['fc00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:a9fe:a9fe', false],
    ['::127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['2001:db8::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['fe80::1%eth0', false],
    ['localhost', false],
    ['0177.0.0.1', false],
    ['2130706433', false],
    ['', false],
  ])('%s → public %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('checkOutboundUrl and guardedFetch', () => {
  let target: Awaited<ReturnType<typeof countingServer>>;
  beforeAll(async () => {
    target = await countingServer((_req, res) => res.end('reached'));
  });
  afterAll(() => target.close());
  afterEach(() => setAllowList(undefined));

  // Every spelling of a refused address the URL parser accepts; the ones that name 127.0.0.1 (or the
  // loopback name) point at the counting server, so a connection attempt would show.
  const corpus = (port: number) => [
    `http://127.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://127.0.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0x7f.0x0.0x0.0x1:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://017700000001:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://127.000.000.001:${port}/`,
    `http://localhost:${port}/`,
    `http://LOCALHOST.:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
    `http://[::127.0.0.1]:${port}/`,
    `http://[64:ff9b::127.0.0.1]:${port}/`,
    `http://[2002:7f00:1::]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://[::]:${port}/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://[fd00:ec2::254]/',
    'http://[::ffff:169.254.169.254]/',
    'http://100.100.100.200/',
    'http://10.0.0.1/',
    'http://012.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://198.51.100.7/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    `https://127.0.0.1:${port}/`,
    `http://user:pass@example.com/`,
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_INFO',
    'ftp://example.com/',
  ];

  it('refuses a corpus of private, loopback, metadata and odd spellings without connecting', async () => {
    const urls = corpus(target.port);
    expect(urls.length).toBeGreaterThanOrEqual(30);
    for (const url of urls) {
      await expect(checkOutboundUrl(url), url).rejects.toBeInstanceOf(OutboundRefusedError);
      await expect(guardedFetch(url, { method: 'POST', body: '{}', timeoutMs: 2000, maxBytes: 1024 }), url).rejects.toBeInstanceOf(
        OutboundRefusedError,
      );
    }
    expect(target.connections()).toBe(0);
  });

  it('the operator allow-list lets a named host through, only that host', async () => {
    setAllowList('127.0.0.1');
    expect(isAllowListedHost('127.0.0.1')).toBe(true);
    expect(isAllowListedHost('localhost')).toBe(false);
    const res = await guardedFetch(`http://127.0.0.1:${target.port}/`, { timeoutMs: 2000, maxBytes: 1024 });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.body.toString()).toBe('reached');
    await expect(guardedFetch(`http://localhost:${target.port}/`, { timeoutMs: 2000, maxBytes: 1024 })).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('the older WORKFLOW_FETCH_ALLOWED_HOSTS still allows', async () => {
    setAllowList(undefined);
    process.env.WORKFLOW_FETCH_ALLOWED_HOSTS = '127.0.0.1';
    resetConfig();
    expect(isAllowListedHost('127.0.0.1')).toBe(true);
  });

  it('does not follow redirects unless asked, and never to a refused address', async () => {
    setAllowList('127.0.0.1');
    const inner = await countingServer((_req, res) => res.end('inside'));
    const redirector = await countingServer((req, res) => {
      const to =
        req.url === '/meta'
          ? 'http://169.254.169.254/latest/meta-data/'
          : req.url === '/name'
            ? `http://localhost:${inner.port}/`
            : `http://0x7f.1:${inner.port}/`;
      res.writeHead(302, { location: to }).end();
    });
    try {
      const notFollowed = await guardedFetch(`http://127.0.0.1:${redirector.port}/meta`, { timeoutMs: 2000, maxBytes: 1024 });
      expect(notFollowed.status).toBe(302);
      await expect(
        guardedFetch(`http://127.0.0.1:${redirector.port}/meta`, { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 3 }),
      ).rejects.toBeInstanceOf(OutboundRefusedError);
      await expect(
        guardedFetch(`http://127.0.0.1:${redirector.port}/name`, { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 3 }),
      ).rejects.toBeInstanceOf(OutboundRefusedError);
      // 0x7f.1 is 127.0.0.1 once parsed: the allow-listed address, so this hop is reached.
      const followed = await guardedFetch(`http://127.0.0.1:${redirector.port}/hex`, { timeoutMs: 2000, maxBytes: 1024, maxRedirects: 3 });
      expect(followed.body.toString()).toBe('inside');
      expect(inner.connections()).toBe(1);
    } finally {
      await inner.close();
      await redirector.close();
    }
  });

  it('caps the body and the time', async () => {
    setAllowList('127.0.0.1');
    const big = await countingServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 1500);
      res.end('x'.repeat(100_000));
    });
    try {
      const res = await guardedFetch(`http://127.0.0.1:${big.port}/`, { timeoutMs: 2000, maxBytes: 1000 });
      expect(res.truncated).toBe(true);
      expect(res.body.length).toBe(1000);
      await expect(guardedFetch(`http://127.0.0.1:${big.port}/slow`, { timeoutMs: 200, maxBytes: 1000 })).rejects.toMatchObject({
        reason: 'timeout',
      });
    } finally {
      await big.close();
    }
  });
});
