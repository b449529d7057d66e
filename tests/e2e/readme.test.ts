import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-standin';
import { listenInTestRange } from '../helpers/serve';
import { ARTIFACTS, ROOT, startServer, type RunningServer } from './server';

const base = inject('e2eBaseUrl');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const MARKER = '<!-- walkthrough -->';
const BASE_LINE = 'B=http://localhost:3000';

/** The bash blocks the README marks as the walk-through, in order, exactly as written. */
function walkthroughBlocks(): string[] {
  const blocks: string[] = [];
  const pattern = new RegExp(`${MARKER}\\n\`\`\`bash\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g');
  for (const match of README.matchAll(pattern)) blocks.push(match[1]);
  return blocks;
}

describe('README', () => {
  it('points only inside the repository (no link to files beside the clone)', () => {
    expect(README).not.toMatch(/\]\(\.\.\//);
    expect(README).not.toMatch(/`\.\.\/[^`]*`/);
    expect(README).toContain('**`/docs`**');
  });

  it('marks every walk-through block it promises', () => {
    const blocks = walkthroughBlocks();
    expect(README.split(MARKER).length - 1, 'each marker is followed by a bash block').toBe(blocks.length);
    const all = blocks.join('\n');
    for (const route of [
      '/api/auth/signup',
      '/api/visitors/session',
      '/api/visitors/track',
      '/end',
      '/api/agents/tools/leads/create',
      '/api/mcp',
      'tools/call',
      '-X PATCH',
      '-X DELETE',
    ]) {
      expect(all, route).toContain(route);
    }
  });

  // Once through the server entry's ingestion fast path (the default) and once with every request through Next.
  describe.skipIf(!base).each([
    { path: 'the fast path', FAST_PATH: '1' },
    { path: 'Next', FAST_PATH: '0' },
  ])('walk-through, run verbatim against the built app, ingestion through $path', ({ FAST_PATH }) => {
    // The walk-through queues a command, which needs a model: a server of its own, pointed at the local stand-in.
    let llm: LlmStandIn;
    let server: RunningServer;
    beforeAll(async () => {
      llm = await startLlmStandIn();
      const probe = http.createServer();
      const port = await listenInTestRange(probe);
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      server = await startServer(
        port,
        { FAST_PATH, LLM_BASE_URL: llm.url, LLM_API_KEY: 'standin-key', LLM_MODEL: 'stand-in-model' },
        `server-readme-fast-path-${FAST_PATH}`,
      );
    });
    afterAll(async () => {
      await server?.stop();
      await llm?.close();
    });

    it('every command works as written', { timeout: 300_000 }, () => {
      const blocks = walkthroughBlocks();
      expect(blocks[0]).toContain(BASE_LINE);
      // Only the base URL changes; every request's status is reported on stderr by a curl wrapper.
      const script = [
        'set -euo pipefail',
        `curl() { command curl --write-out '%{stderr}HTTP %{http_code} %{url_effective}\\n' "$@"; }`,
        ...blocks.map((block) => block.replace(BASE_LINE, `B=${server.url}`)),
      ].join('\n');
      const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 240_000, env: process.env });
      writeFileSync(
        path.join(ARTIFACTS, `readme-walkthrough-fast-path-${FAST_PATH}.log`),
        `$ bash (README walk-through)\n${run.stdout}\n--- stderr ---\n${run.stderr}`,
      );
      const requests = run.stderr
        .split('\n')
        .filter((l) => l.startsWith('HTTP '))
        .map((l) => {
          const [, status, url] = l.split(' ');
          return { status: Number(status), path: new URL(url).pathname };
        });
      expect(run.status, run.stderr).toBe(0);
      // The last call shows the deleted site's key refused; every other one succeeds.
      expect(requests.at(-1)).toEqual({ status: 401, path: '/sites' });
      expect(requests.slice(0, -1).filter((r) => r.status >= 400)).toEqual([]);
      expect(requests.length).toBeGreaterThanOrEqual(17);

      const out = run.stdout;
      expect(out).toContain('"success":true');
      expect(out, 'the session read back has its events').toMatch(/"event_type":"pageview"[\s\S]*"event_name":"add_to_cart"/);
      expect(out, 'a session started by curl itself is a bot').toMatch(/(^|[}\n])true\n/);
      expect(out, 'the tool route created the lead').toContain('"email":"grace@example.com"');
      expect(out, 'MCP lists the tools').toMatch(/(^|[\s}])createLead( |.* )getLeads( |\n)|getLeads( |.* )createLead( |\n)/);
      expect(out, 'MCP tools/call answers the REST body').toContain('"structuredContent"');
      expect(out, 'the site was deleted').toMatch(/"removed":\{"api_keys":1,/);
    });
  });
});
