import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import SuiteSummaryReporter, { summarize } from '../helpers/suite-summary';

/** A test module as the reporter sees it: its project, its file and the states of its tests. */
const mod = (project: string, moduleId: string, states: string[]) =>
  ({
    project: { name: project },
    moduleId,
    children: { allTests: () => states.map((state) => ({ result: () => ({ state }) })) },
  }) as unknown as TestModule;

describe('npm test suite summary', () => {
  it('says which machine-dependent suites ran, which were skipped and how to enable them', () => {
    const lines = summarize(
      [
        mod('pglite', '/repo/tests/integration/keys/keys.test.ts', ['passed']),
        mod('unit', '/repo/tests/unit/ratelimit/upstash-shared.test.ts', ['skipped', 'skipped']),
        mod('e2e', '/repo/tests/e2e/console.test.ts', ['passed', 'passed', 'skipped']),
      ],
      {},
    );
    expect(lines.find((l) => l.includes('Postgres'))).toMatch(/SKIPPED .*TEST_DATABASE_URL=postgres:/);
    expect(lines.find((l) => l.includes('Redis'))).toMatch(/SKIPPED .*TEST_REDIS_URL/);
    expect(lines.find((l) => l.includes('Chromium'))).toMatch(/RAN .*2 tests \(1 skipped\)/);
    expect(lines.find((l) => l.includes('Temporal'))).toMatch(/not part of this run/);
    expect(lines.at(-1)).toContain('CI=true');
  });

  it('counts the Postgres suites as run when TEST_DATABASE_URL is set', () => {
    const lines = summarize([mod('postgres', '/repo/tests/integration/keys/keys.test.ts', ['passed', 'failed'])], {
      TEST_DATABASE_URL: 'postgres://x',
      CI: 'true',
    });
    expect(lines.find((l) => l.includes('Postgres'))).toMatch(/RAN .*2 tests/);
    expect(lines.some((l) => l.includes('with CI=true'))).toBe(false);
  });

  it('reports a suite meant for one project from that project when the run has it', () => {
    const replica = '/repo/tests/integration/analytics/read-replica.test.ts';
    const line = (lines: string[]) => lines.find((l) => l.includes('read replica'));
    const postgres = { TEST_DATABASE_URL: 'postgres://x' };
    const both = [mod('pglite', replica, ['skipped', 'skipped', 'skipped']), mod('postgres', replica, ['passed', 'passed', 'passed'])];
    expect(line(summarize(both, postgres))).toMatch(/RAN +Analytics read replica \(streaming\) — 3 tests$/);
    // The PGlite project alone, when a Postgres project exists: the run meant is not part of this one.
    expect(line(summarize([mod('pglite', replica, ['skipped', 'skipped', 'skipped'])], postgres))).toMatch(/not part of this run/);
    // Without a Postgres project the PGlite run is the one meant: its skip, or its run, is the outcome.
    expect(line(summarize([mod('pglite', replica, ['skipped', 'skipped', 'skipped'])], {}))).toMatch(/SKIPPED .*PG_BIN/);
    expect(line(summarize([mod('pglite', replica, ['passed', 'passed', 'skipped'])], {}))).toMatch(/RAN .*2 tests \(1 skipped\)$/);
    // A suite that runs in every project still counts them all.
    const mailbox = '/repo/tests/integration/email/mailbox.test.ts';
    const imap = summarize([mod('pglite', mailbox, ['passed']), mod('postgres', mailbox, ['passed', 'skipped'])], postgres);
    expect(imap.find((l) => l.includes('IMAP'))).toMatch(/RAN .*2 tests \(1 skipped\)$/);
  });

  it('prints its lines once per run, however many reporter instances the config built', () => {
    const printed: string[] = [];
    const reporters = [new SuiteSummaryReporter((t) => printed.push(t)), new SuiteSummaryReporter((t) => printed.push(t))];
    for (let run = 0; run < 2; run++) {
      for (const r of reporters) r.onTestRunStart();
      for (const r of reporters) r.onTestRunEnd([mod('pglite', '/repo/tests/integration/keys/keys.test.ts', ['passed'])]);
    }
    expect(printed).toHaveLength(2);
    expect(printed[0].match(/Suites that need the machine:/g)).toHaveLength(1);
  });
});
