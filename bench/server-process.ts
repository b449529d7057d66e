import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Seed } from './scenarios';

/** Until the server answers /api/health; the first start migrates a new database, minutes on a busy machine. */
export async function waitUp(base: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server at ${base} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server at ${base} did not answer within 5 minutes`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function json(base: string, method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(parsed)}`);
  return parsed.data;
}

/** A user, a site (domain bench.example.com) and a read/write key of it, through the API of the server at `base`. */
export async function seed(base: string): Promise<Seed> {
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password 123';
  await json(base, 'POST', '/api/auth/signup', { email, password });
  const { token } = await json(base, 'POST', '/api/auth/token', { email, password });
  const auth = { authorization: `Bearer ${token}` };
  const site = await json(base, 'POST', '/api/visitors/sites', { name: 'Bench', domain: 'bench.example.com' }, auth);
  const key = await json(base, 'POST', '/api/keys', { name: 'bench', scopes: ['read', 'write'], site_id: site.id, expirationDays: 1 }, auth);
  return { base, siteId: site.id, apiKey: key.apiKey, sessionToken: token };
}

/** This process's environment with these variables added (undefined: removed). */
export const withEnv = (env: Record<string, string | undefined>): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv;

/** A script of the app (`scripts/…`, through tsx) with these variables added (undefined: removed); rejects when it fails. */
export async function runTool(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), args, { env: withEnv(env), stdio: 'inherit' });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
}

/** The seeded site on the enterprise plan with limits out of reach: no scenario meets a plan cap (workflow starts count running runs against one). */
export const unlimitedPlan = (siteId: string, env: Record<string, string | undefined>) =>
  runTool(['scripts/site-plan.ts', siteId, 'enterprise', '100000000', '100000'], env);
