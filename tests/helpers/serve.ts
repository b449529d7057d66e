import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const CLIENT_CLAIMS = new Set(['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-proto', 'x-real-ip', 'forwarded']);

/**
 * Serves route handlers over real HTTP on 127.0.0.1 (a port in 3500–3599), forwarding each
 * request to the handler of its path as the app's server entry and Next would. For clients that
 * need a URL (the MCP client over Streamable HTTP).
 */
export async function serveRoutes(routes: Record<string, Partial<Record<string, Handler>>>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const { port } = server.address() as AddressInfo;
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const handler = routes[url.pathname]?.[req.method ?? 'GET'];
      if (!handler) {
        res.writeHead(routes[url.pathname] ? 405 : 404).end();
        return;
      }
      // As `npm start` (server.mjs) with TRUST_PROXY=0: the client address is the socket's, and
      // forwarding headers the client sent are not passed on.
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !CLIENT_CLAIMS.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      if (req.socket.remoteAddress) headers.set('x-forwarded-for', req.socket.remoteAddress);
      const response = await handler(new Request(url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }), {
        params: Promise.resolve({}),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await listenInTestRange(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Listens on 127.0.0.1 at a free port of the range test servers may use (3500–3599). */
export async function listenInTestRange(server: http.Server): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 3500 + Math.floor(Math.random() * 100);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return port;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 50) throw error;
    }
  }
}

/** A loopback port the system has free right now, for a server started as a child process with its port named. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = http.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
