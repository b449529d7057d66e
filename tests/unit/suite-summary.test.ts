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
