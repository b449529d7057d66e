import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local webhook receiver on 127.0.0.1: records every request (headers, raw body) per path and
 * answers with what the test scripted for that path (a status per call; `hang` never answers).
 */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = number | 'hang';

export interface Receiver {
  url(path: string): string;
  received(path?: string): Received[];
  /** Answers for the next calls to `path`, in order; after them, 200. */
  script(path: string, answers: Answer[]): void;
  /** Resolves once `path` got `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const log: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      log.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      waiters.forEach((w) => w());
      const answer = scripts.get(path)?.shift() ?? 200;
      if (answer === 'hang') return void hanging.add(res);
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const received = (path?: string) => log.filter((r) => path === undefined || r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    script: (path, answers) => void scripts.set(path, [...answers]),
    waitFor: (path, count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${path} got ${received(path).length} of ${count} requests`));
        }, timeoutMs);
        const check = () => {
          if (received(path).length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received(path));
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
