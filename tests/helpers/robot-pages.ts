import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { listenInTestRange } from './serve';

/**
 * Pages a robot's browser visits in tests, served on 127.0.0.1: a form whose submission sets a
 * cookie and redirects to a result page that reads it, and a probe page whose script tries to
 * reach a host the outbound guard refuses. `hits` counts requests per path.
 */
export interface RobotPages {
  url: string;
  port: number;
  hits: Map<string, number>;
  close(): Promise<void>;
}

const page = (body: string, title = 'Robot test page') => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startRobotPages(): Promise<RobotPages> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const html = (body: string, title?: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(body, title));
      if (url.pathname === '/form') {
        return html(
          '<h1>Sign the guest book</h1><form method="post" action="/submit"><label>Name <input id="name" name="name"></label><button id="go" type="submit">Send</button></form>',
          'Guest book',
        );
      }
      if (url.pathname === '/submit' && req.method === 'POST') {
        const name = new URLSearchParams(raw).get('name') ?? '';
        res.writeHead(303, { location: '/result', 'set-cookie': `guest=${encodeURIComponent(name)}; Path=/; HttpOnly; Max-Age=86400` }).end();
        return;
      }
      if (url.pathname === '/result') {
        const cookie = /(?:^|;\s*)guest=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
        return html(`<p id="result">${cookie ? `Hello, ${escape(decodeURIComponent(cookie))}` : 'Nobody signed'}</p>`, 'Result');
      }
      if (url.pathname === '/probe') {
        const target = url.searchParams.get('target') ?? '';
        return html(
          `<p id="probe">pending</p><script>fetch(${JSON.stringify(target)}).then(() => { document.getElementById('probe').textContent = 'reached'; }, () => { document.getElementById('probe').textContent = 'blocked'; });</script>`,
          'Probe',
        );
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
  });
  const port = await listenInTestRange(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Chromium processes that are children of this process (a browser left behind shows here). */
export function chromiumChildren(pid = process.pid): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const rows = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([p, pp, comm]) => ({ pid: Number(p), ppid: Number(pp), comm: comm ?? '' }));
  // Descendants of this process, at any depth.
  const mine = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => r.pid !== pid && mine.has(r.pid) && /chrom/i.test(r.comm)).map((r) => r.pid);
}

/**
 * A Chromium of this machine with the DevTools protocol on 127.0.0.1 (the remote adapter's stand-in
 * for a hosted browser). Ready when Chromium says where DevTools listens and that endpoint answers
 * the protocol's version request — no fixed wait, so a loaded machine only makes it slower. Closing
 * waits for the process to exit and removes its profile; it never throws.
 */
export async function startCdpChromium(
  executable = '/usr/bin/chromium',
): Promise<{ endpoint: string; process: ChildProcess; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'sgp-cdp-'));
  const child = spawn(
    executable,
    [
      '--headless=new',
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const removeProfile = () => rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await removeProfile();
  };
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
        if (m) resolve(`http://127.0.0.1:${m[1]}`);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${err}`)));
    });
    const version = await fetch(`${endpoint}/json/version`);
    if (!version.ok || !(await version.json()).webSocketDebuggerUrl) throw new Error(`DevTools at ${endpoint} did not answer /json/version`);
    return { endpoint, process: child, close };
  } catch (error) {
    await close();
    throw error;
  }
}
