import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { revokeKey } from '@/lib/keys/repo';
import { issueAccountToken } from '@/lib/users/account-tokens';
import { issueSessionToken } from '@/lib/users/session-tokens';
import { createKey, createSite, createUser, type TestUser } from '@/tests/helpers/harness';
import { joinedMember } from '@/tests/helpers/members';
import { summarize, trial, type Instance, type Summary, type TrialOutcome } from '@/tests/helpers/revocation-trials';

/**
 * Two web instances (tests/helpers/instance-server.ts: the fast path's routes and the others
 * through the server entry's dispatcher) on one Postgres database — the suite's. Each trial takes a
 * credential away through one instance while the other is hammered with it, the direction
 * alternating: after the answer, the other instance must refuse every request (docs/ARCHITECTURE.md,
 * "Access ends on every instance"). The verified-key cache of the instance that did not make the
 * change is the one at stake; sessions are read from the database on every request.
 * Postgres only: the embedded database has one web instance.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const TRIALS = Number(process.env.REVOCATION_TRIALS ?? 100);
// A trial is a few dozen requests; a busy machine makes them slow.
const TIMEOUT = 300_000;
const children: ChildProcess[] = [];
const instances: Instance[] = [];

async function startInstance(databaseUrl: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/instance-server.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '6', AUTH_RATE_LIMIT_PER_IP: '1000000', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the instance exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening (\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
  });
  return { url };
}

const status = async (res: Promise<Response>) => {
  const r = await res;
  await r.arrayBuffer();
  return r.status;
};
const json = { 'content-type': 'application/json' };

/** Runs `TRIALS` trials, alternating which instance takes the credential away; `prepare` makes each trial's credential. */
async function run<C>(
  prepare: () => Promise<C>,
  attempt: (credential: C) => (base: string, loop: number) => Promise<number>,
  takeAway: (credential: C) => (base: string) => Promise<void>,
): Promise<Summary> {
  const outcomes: TrialOutcome[] = [];
  for (let i = 0; i < TRIALS; i++) {
    const [revoking, other] = i % 2 ? [instances[1], instances[0]] : [instances[0], instances[1]];
    const credential = await prepare();
    outcomes.push(await trial(revoking, other, attempt(credential), takeAway(credential)));
  }
  return summarize(outcomes);
}

const answered = async (res: Promise<Response>, expected: number) => {
  const r = await res;
  const body = await r.text();
  if (r.status !== expected) throw new Error(`expected ${expected}, got ${r.status}: ${body}`);
};

/** An API key's requests: the fast path's track (X-SA-API-KEY) and a Next route (GET /sites, X-API-Key), a write (leads/create) for scopes. */
const keyAttempt =
  (routes: 'any' | 'write') =>
  ({ apiKey, siteId }: { apiKey: string; siteId: string }) =>
  (base: string, loop: number) =>
    loop % 2
      ? routes === 'write'
        ? status(
            fetch(`${base}/api/agents/tools/leads/create`, { method: 'POST', headers: { ...json, authorization: `Bearer ${apiKey}` }, body: '{}' }),
          )
        : status(fetch(`${base}/sites`, { headers: { 'x-api-key': apiKey } }))
      : status(
          fetch(`${base}/api/visitors/track`, {
            method: 'POST',
            headers: { ...json, 'x-sa-api-key': apiKey },
            body: JSON.stringify({ site_id: siteId, session_id: randomUUID(), event_type: 'pageview', url: 'https://example.com/' }),
          }),
        );

/** A session token's requests: the account and the site's keys. */
const sessionAttempt =
  ({ token, siteId }: { token: string; siteId: string }) =>
  (base: string, loop: number) =>
    status(fetch(loop % 2 ? `${base}/api/keys?site_id=${siteId}` : `${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }));

describe.skipIf(!onPostgres)('access taken away on one instance is refused on the other once the answer came', () => {
  let owner: TestUser;
  let siteId: string;
  const figures: Record<string, Summary> = {};

  beforeAll(async () => {
    const [{ name }] = await rows<{ name: string }>(sql`select current_database() as name`, await getDb());
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    instances.push(...(await Promise.all([startInstance(url.toString()), startInstance(url.toString())])));
    owner = await createUser();
    siteId = await createSite(owner);
  }, TIMEOUT);

  afterAll(() => {
    for (const child of children) child.kill('SIGTERM');
    console.log(`revocation across instances: ${JSON.stringify(figures)}`);
  });

  const expectNoneAccepted = (kind: string, summary: Summary) => {
    figures[kind] = summary;
    expect(summary.trials).toBe(TRIALS);
    expect(summary.after).toBeGreaterThanOrEqual(TRIALS * 8);
    expect(summary.acceptedAfter, JSON.stringify(summary)).toBe(0);
  };

  it(
    'a revoked key',
    async () => {
      const summary = await run(
        async () => ({ siteId, ...(await createKey(owner, siteId)) }),
        keyAttempt('any'),
        (k) => (base) => answered(fetch(`${base}/api/keys?site_id=${siteId}&id=${k.id}`, { method: 'DELETE', headers: owner.auth }), 200),
      );
      expectNoneAccepted('key revocation', summary);
    },
    TIMEOUT,
  );

  it(
    "a deleted site's key",
    async () => {
      const summary = await run(
        async () => {
          const site = await createSite(owner, 'Going away');
          return { siteId: site, ...(await createKey(owner, site)) };
        },
        keyAttempt('any'),
        (k) => (base) =>
          answered(
            fetch(`${base}/api/sites/${k.siteId}`, {
              method: 'DELETE',
              headers: { ...json, ...owner.auth },
              body: JSON.stringify({ confirm: 'Going away' }),
            }),
            200,
          ),
      );
      expectNoneAccepted('site deletion', summary);
    },
    TIMEOUT,
  );

  it(
    'a key lowered to read-only, on write routes',
    async () => {
      let previous: string | undefined;
      const summary = await run(
        async () => {
          // The site's plan caps its live keys: the last trial's key goes first.
          if (previous) await revokeKey(siteId, previous);
          const key = await createKey(owner, siteId);
          previous = key.id;
          return { siteId, ...key };
        },
        keyAttempt('write'),
        (k) => (base) =>
          answered(
            fetch(`${base}/api/keys`, {
              method: 'PATCH',
              headers: { ...json, ...owner.auth },
              body: JSON.stringify({ id: k.id, site_id: siteId, scopes: ['read'] }),
            }),
            200,
          ),
      );
      expectNoneAccepted('scope lowered to read', summary);
    },
    TIMEOUT,
  );

  it(
    "a removed member's session, on the site's routes",
    async () => {
      const summary = await run(
        async () => {
          const viewer = await joinedMember(owner, siteId, 'viewer');
          return { id: viewer.id, token: viewer.token };
        },
        (m) => (base) => status(fetch(`${base}/api/sites/${siteId}/members`, { headers: { authorization: `Bearer ${m.token}` } })),
        (m) => (base) => answered(fetch(`${base}/api/sites/${siteId}/members/${m.id}`, { method: 'DELETE', headers: owner.auth }), 200),
      );
      expectNoneAccepted('member removal', summary);
    },
    TIMEOUT,
  );

  it(
    'a signed-out session token',
    async () => {
      const summary = await run(
        async () => ({ siteId, token: (await issueSessionToken({ id: owner.id, email: owner.email, name: null })).token }),
        sessionAttempt,
        (s) => (base) => answered(fetch(`${base}/api/auth/token`, { method: 'DELETE', headers: { authorization: `Bearer ${s.token}` } }), 200),
      );
      expectNoneAccepted('sign-out', summary);
    },
    TIMEOUT,
  );

  it(
    'a session token issued before a password reset',
    async () => {
      const user = await createUser();
      const own = await createSite(user);
      const summary = await run(
        async () => ({
          siteId: own,
          token: (await issueSessionToken({ id: user.id, email: user.email, name: null })).token,
          reset: await issueAccountToken('reset_password', user),
        }),
        sessionAttempt,
        (s) => (base) =>
          answered(
            fetch(`${base}/api/auth/password/reset`, {
              method: 'POST',
              headers: json,
              body: JSON.stringify({ token: s.reset, password: `new password ${randomUUID()}` }),
            }),
            200,
          ),
      );
      expectNoneAccepted('password reset', summary);
    },
    TIMEOUT,
  );
});
