/**
 * Lints the OpenAPI document with Spectral (`spectral:oas`) and Redocly (`recommended`), the
 * rulesets of the tools integrators use: `npm run openapi:lint`, also run by the unit suite.
 * Writes the static document (placeholder server) to a temporary directory as it is served, the
 * main document and one part per tag (lib/http/openapi-split.ts), and as one document for
 * Spectral's schema check (see .spectral.yaml), and fails on any error or warning. Both run offline (no network at lint time).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { routeManifest, schemaModules } from '@/app/api/openapi.json/manifest';
import { buildOpenApi } from '@/lib/http/openapi';
import { splitOpenApi } from '@/lib/http/openapi-split';

const root = process.cwd();
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

export function lintOpenApi(): { tool: string; ok: boolean; output: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    const whole = buildOpenApi(routeManifest, { schemaModules });
    const bundled = path.join(dir, 'bundled.json');
    writeFileSync(bundled, JSON.stringify(whole, null, 2));
    const { main, parts } = splitOpenApi(whole as unknown as Parameters<typeof splitOpenApi>[0]);
    writeFileSync(file, JSON.stringify(main, null, 2));
    mkdirSync(path.join(dir, 'openapi'));
    for (const [name, part] of Object.entries(parts)) writeFileSync(path.join(dir, 'openapi', name), JSON.stringify(part, null, 2));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const run = (tool: string, args: string[]) => {
      const r = spawnSync(bin(tool), args, { env, encoding: 'utf8', timeout: 300_000 });
      const output = `${r.stdout}${r.stderr}`;
      // Redocly exits 0 on warnings: a warning fails here too.
      return { tool, ok: r.status === 0 && !/You have \d+ warnings?/.test(output), output };
    };
    // Beside the files: the ruleset's overrides name them relative to itself.
    copyFileSync(path.join(root, '.spectral.yaml'), path.join(dir, '.spectral.yaml'));
    const spectral = (target: string) =>
      run('spectral', ['lint', target, '--ruleset', path.join(dir, '.spectral.yaml'), '--fail-severity', 'warn', '--format', 'text']);
    return [spectral(file), spectral(bundled), run('redocly', ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--max-problems', '200'])];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const results = lintOpenApi();
  for (const r of results) console.log(`${r.tool}: ${r.ok ? 'clean' : 'problems'}\n${r.output}`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
