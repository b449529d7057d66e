import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';

/**
 * Test-only stand-in for Upstash's REST API in front of a real Redis, so the Upstash adapter
 * runs unchanged against the machine's Redis. It speaks what @upstash/redis sends:
 * POST / with one command as a JSON array, POST /pipeline and /multi-exec with an array of
 * commands, `Authorization: Bearer <token>`, and `Upstash-Encoding: base64` (string results
 * base64-encoded, "OK" and numbers as they are). Errors are `{error}` (400 for a single command,
 * per entry in pipelines), the way Upstash answers them.
 */
export interface UpstashBridge {
  url: string;
  token: string;
  close(): Promise<void>;
}

type Command = [string, ...unknown[]];
type Reply = { result: unknown } | { error: string };

export async function startUpstashBridge(options: { redisUrl?: string; token?: string } = {}): Promise<UpstashBridge> {
  const token = options.token ?? 'bridge-token';
  const redis = new Redis(options.redisUrl ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      process.stderr.write(`upstash bridge: ${String(error)}\n`);
      send(res, 500, { error: String(error) });
    });
  });
  // Like the real service, keep idle connections well past the clients' pauses.
  server.keepAliveTimeout = 65_000;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, { error: 'Method not allowed' });
    if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' });
    const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    const encode = (reply: Reply): Reply => ('result' in reply && base64 ? { result: encodeValue(reply.result) } : reply);

    if (path === '/') {
      const reply = await run(body as Command);
      return send(res, 'error' in reply ? 400 : 200, encode(reply));
    }
    if (path === '/pipeline' || path === '/multi-exec') {
      const commands = body as Command[];
      const batch = path === '/pipeline' ? redis.pipeline() : redis.multi();
      for (const [name, ...args] of commands) batch.call(name, ...args.map(arg));
      const results = (await batch.exec()) ?? [];
      return send(
        res,
        200,
        results.map(([error, result]) => encode(error ? { error: error.message } : { result })),
      );
    }
    return send(res, 404, { error: `Unknown path ${path}` });
  }

  async function run([name, ...args]: Command): Promise<Reply> {
    try {
      return { result: await redis.call(name, ...args.map(arg)) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

const arg = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);

function encodeValue(value: unknown): unknown {
  if (typeof value === 'string') return value === 'OK' ? value : Buffer.from(value, 'utf8').toString('base64');
  if (Array.isArray(value)) return value.map(encodeValue);
  return value;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
