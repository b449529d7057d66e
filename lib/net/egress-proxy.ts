import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { errorFields, log } from '@/lib/core/log';
import { checkOutboundUrl } from './guard';

/**
 * A forward HTTP proxy on 127.0.0.1 that is the one way out for a browser launched with it:
 * plain http requests (absolute-form) and CONNECT tunnels (https, ws, wss, TURN over TCP) pass
 * `checkOutboundUrl` first, and the connection goes to the address that check resolved — the
 * host is resolved once, here, so a name cannot answer the check with one address and the
 * connection with another. Refused: 403, no connection is opened.
 */
export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for `--proxy-server`. */
  url: string;
  close(): Promise<void>;
}

const IDLE_MS = 120_000;

/** Where a request may go: the pinned address, or why not. */
async function destination(url: URL): Promise<{ address: string } | { refused: string }> {
  try {
    const { addresses } = await checkOutboundUrl(url);
    return { address: addresses[0] };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : 'refused' };
  }
}

/** `host:port` of a CONNECT request as a URL the guard can check (the port decides nothing there). */
function connectTarget(authority: string | undefined): URL | undefined {
  if (!authority) return undefined;
  try {
    const url = new URL(`https://${authority}`);
    return url.port ? url : undefined;
  } catch {
    return undefined;
  }
}

function refuse(socket: net.Socket, why: string): void {
  socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(why)}\r\n\r\n${why}`);
}

export async function startEgressProxy(): Promise<EgressProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.setTimeout(IDLE_MS, () => s.destroy());
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { connection: 'close' }).end('absolute URL expected');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(403, { connection: 'close' }).end(`${url.protocol} is not proxied`);
      return;
    }
    const to = await destination(url);
    if ('refused' in to) {
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end(to.refused);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request({
      host: to.address,
      port: url.port || 80,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { connection: 'close' }).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });

  server.on('connection', track);
  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = connectTarget(req.url);
    if (!target) return refuse(client, 'CONNECT needs host:port');
    const to = await destination(target);
    if ('refused' in to) return refuse(client, to.refused);
    const upstream = net.connect(Number(target.port), to.address);
    track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  // A WebSocket upgrade sent to the proxy as a plain request is not forwarded (browsers tunnel them).
  server.on('upgrade', (_req, socket: net.Socket) => refuse(socket, 'upgrade requests are tunnelled with CONNECT'));
  server.on('clientError', (error, socket) => {
    log.warn('egress proxy client error', errorFields(error));
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
