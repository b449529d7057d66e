/**
 * Robot instances on the machine's Chromium (local provider), through the real routes on
 * embedded PGlite: the time to create an instance (POST /api/robots/instance: record, browser
 * context, plan), to pause it and to resume it (state restored, page reopened), and the memory a
 * running instance costs — the memory of every Chromium process this process started (PSS:
 * shared pages split between processes; RSS summed over processes counts them in each), before and after BENCH_INSTANCES (default 5) instances run on one page each.
 * Prints p50/max over BENCH_ROUNDS (default 10) rounds after one warm-up (which launches the browser).
 *
 *   npx tsx bench/robots.ts
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { POST as actRoute } from '@/app/api/robots/instance/act/route';
import { POST as deleteRoute } from '@/app/api/robots/instance/delete/route';
import { POST as pauseRoute } from '@/app/api/robots/instance/pause/route';
import { POST as resumeRoute } from '@/app/api/robots/instance/resume/route';
import { POST as instanceRoute } from '@/app/api/robots/instance/route';
import { resetConfig } from '@/lib/core/config';
import { resetProviders } from '@/lib/core/providers';
import { openMigratedDatabase, useDatabase } from '@/lib/db/client';
import { call, createTenant } from '../tests/helpers/harness';
import { chromiumChildren, startRobotPages } from '../tests/helpers/robot-pages';
import { applyTestEnv } from '../tests/helpers/test-env';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 5);

/** Memory of the processes in kB: `Rss` (shared pages counted in every process) and `Pss` (shared pages split between them). */
const memoryKb = (pids: number[], field: 'Rss' | 'Pss') =>
  pids.reduce((sum, pid) => {
    try {
      return sum + Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      return sum;
    }
  }, 0);

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${s[Math.floor(s.length / 2)].toFixed(0)} ms, max ${s.at(-1)!.toFixed(0)} ms`;
};

async function main() {
  applyTestEnv();
  process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
  process.env.ROBOTS_MAX_PER_SITE = String(INSTANCES + 2);
  resetConfig();
  useDatabase(await openMigratedDatabase({ kind: 'pglite', dataDir: 'memory://' }));
  const pages = await startRobotPages();
  const t = await createTenant();
  const key = { authorization: `Bearer ${t.key}` };
  const post = async (handler: typeof instanceRoute, path: string, body: Record<string, unknown>) => {
    const res = await call(handler, { method: 'POST', path, headers: key, body });
    if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
    const start = performance.now();
    const value = await fn();
    return [performance.now() - start, value];
  };

  const create = [] as number[];
  const pause = [] as number[];
  const resume = [] as number[];
  for (let round = 0; round <= ROUNDS; round++) {
    const [c, created] = await timed(() => post(instanceRoute, '/api/robots/instance', { site_id: t.siteId, activity: 'Benchmark robot' }));
    const id = created.instance.id;
    await post(actRoute, '/api/robots/instance/act', { instance_id: id, message: 'open', actions: [{ type: 'navigate', url: `${pages.url}/form` }] });
    const [p] = await timed(() => post(pauseRoute, '/api/robots/instance/pause', { instance_id: id }));
    const [r] = await timed(() => post(resumeRoute, '/api/robots/instance/resume', { instance_id: id }));
    await post(deleteRoute, '/api/robots/instance/delete', { instance_id: id });
    if (round === 0) {
      console.log(`warm-up (browser launch included): create ${c.toFixed(0)} ms`);
      continue;
    }
    create.push(c);
    pause.push(p);
    resume.push(r);
  }
  console.log(`create instance: ${stats(create)}`);
  console.log(`pause: ${stats(pause)}`);
  console.log(`resume (state restored, page reopened): ${stats(resume)}`);

  // Memory: one idle instance keeps the browser up; then INSTANCES more, each on the form page.
  const base = await post(instanceRoute, '/api/robots/instance', { site_id: t.siteId, activity: 'Baseline' });
  await new Promise((r) => setTimeout(r, 1000));
  const before = { rss: memoryKb(chromiumChildren(), 'Rss'), pss: memoryKb(chromiumChildren(), 'Pss') };
  const ids: string[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const { instance } = await post(instanceRoute, '/api/robots/instance', { site_id: t.siteId, activity: `Memory ${i}` });
    await post(actRoute, '/api/robots/instance/act', {
      instance_id: instance.id,
      message: 'open',
      actions: [{ type: 'navigate', url: `${pages.url}/form` }],
    });
    ids.push(instance.id);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const after = { rss: memoryKb(chromiumChildren(), 'Rss'), pss: memoryKb(chromiumChildren(), 'Pss') };
  const per = (k: 'rss' | 'pss') => ((after[k] - before[k]) / 1024 / INSTANCES).toFixed(1);
  console.log(
    `memory per running instance (${INSTANCES} instances on a small page): PSS +${per('pss')} MB, RSS sum +${per('rss')} MB ` +
      `(browser with one instance: PSS ${(before.pss / 1024).toFixed(0)} MB, RSS sum ${(before.rss / 1024).toFixed(0)} MB)`,
  );
  for (const id of [...ids, base.instance.id]) await post(deleteRoute, '/api/robots/instance/delete', { instance_id: id });
  await resetProviders();
  await pages.close();
  console.log(`Chromium processes left: ${chromiumChildren().length}`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
