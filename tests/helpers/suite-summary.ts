import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, after every run, which of the suites that need something from the machine ran and which
 * were skipped, and how to enable a skipped one. A suite counts as run when at least one of its
 * tests passed or failed (not only skipped). Under CI=true those suites fail instead of skipping,
 * so the table then only confirms they ran.
 */
interface Suite {
  name: string;
  needs: string;
  enable: string;
  matches(module: TestModule): boolean;
  /**
   * The project that runs the suite when the variable that creates that project is set (the others
   * skip it then, as the read replica's suite skips on PGlite when there is a Postgres project): only
   * that project's tests are the suite's outcome, and the other projects' skips are not counted.
   */
  meantIn?: { project: string; whenSet: string };
}

const SUITES: Suite[] = [
  {
    name: 'Integration on Postgres',
    needs: 'TEST_DATABASE_URL',
    enable: 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test (each file creates and drops its own database)',
    matches: (m) => m.project.name === 'postgres',
  },
  {
    name: 'Shared rate limiter (Redis)',
    needs: 'a Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379)',
    enable: 'start Redis (e.g. `redis-server`) or set TEST_REDIS_URL',
    matches: (m) => m.moduleId.includes('upstash-shared'),
  },
  {
    name: 'End to end (Chromium)',
    needs: 'Chromium at CHROMIUM_PATH (default /usr/bin/chromium)',
    enable: '`apt-get install -y chromium` or set CHROMIUM_PATH (no browser is ever downloaded)',
    matches: (m) => m.project.name === 'e2e',
  },
  {
    name: 'Temporal engine',
    needs: 'the `temporal` CLI on PATH or at TEMPORAL_CLI',
    enable: 'install the Temporal CLI (https://docs.temporal.io/cli) or set TEMPORAL_CLI',
    matches: (m) => m.project.name === 'temporal',
  },
  {
    name: 'Analytics read replica (streaming)',
    needs: 'the Postgres server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql/<version>/bin or PG_BIN',
    enable: '`apt-get install -y postgresql` (the suite starts its own primary and replica on loopback ports from 5450)',
    matches: (m) => m.moduleId.includes('integration/analytics/read-replica'),
    meantIn: { project: 'postgres', whenSet: 'TEST_DATABASE_URL' },
  },
  {
    name: 'IMAP mailbox (Dovecot)',
    needs: 'Dovecot at DOVECOT_BINARY (default /usr/sbin/dovecot)',
    enable: '`apt-get install -y dovecot-imapd` (the suite starts its own instance on a loopback port)',
    matches: (m) => m.moduleId.includes('integration/email/mailbox'),
  },
];

type Outcome = { ran: number; skipped: number };

function outcomeOf(modules: TestModule[]): Outcome {
  const outcome = { ran: 0, skipped: 0 };
  for (const file of modules) {
    for (const test of file.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed' || state === 'failed') outcome.ran++;
      else outcome.skipped++;
    }
  }
  return outcome;
}

export function summarize(modules: readonly TestModule[], env: Record<string, string | undefined> = process.env): string[] {
  const lines = ['', 'Suites that need the machine:'];
  for (const suite of SUITES) {
    const meant = suite.meantIn && env[suite.meantIn.whenSet] ? suite.meantIn.project : undefined;
    const mine = modules.filter((m) => suite.matches(m) && (meant === undefined || m.project.name === meant));
    // Without TEST_DATABASE_URL the postgres project does not exist: it is skipped when the integration suites ran.
    if (suite.name.includes('Postgres') && !env.TEST_DATABASE_URL && modules.some((m) => m.project.name === 'pglite')) {
      lines.push(`  SKIPPED  ${suite.name} — needs ${suite.needs}; to enable: ${suite.enable}`);
      continue;
    }
    if (mine.length === 0) {
      lines.push(`  -        ${suite.name} — not part of this run`);
      continue;
    }
    const { ran, skipped } = outcomeOf(mine);
    lines.push(
      ran > 0
        ? `  RAN      ${suite.name} — ${ran} test${ran === 1 ? '' : 's'}${skipped ? ` (${skipped} skipped)` : ''}`
        : `  SKIPPED  ${suite.name} — needs ${suite.needs}; to enable: ${suite.enable}`,
    );
  }
  if (env.CI !== 'true') lines.push('  (with CI=true a missing requirement fails the run instead of skipping)');
  return lines;
}

// The config can be evaluated more than once in a run (root and projects), each time building a
// reporter: the summary is printed once per run whichever instance sees the end first.
const PRINTED = Symbol.for('sgp.suiteSummaryPrinted');
const runState = globalThis as { [PRINTED]?: boolean };

export default class SuiteSummaryReporter implements Reporter {
  constructor(private readonly print: (text: string) => void = (text) => console.log(text)) {}

  onTestRunStart() {
    runState[PRINTED] = false;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (runState[PRINTED]) return;
    runState[PRINTED] = true;
    this.print(summarize(modules).join('\n'));
  }
}
