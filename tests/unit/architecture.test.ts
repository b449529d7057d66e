import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every `import … from '…'` / `import('…')` specifier of the TypeScript files under `dir`. */
function importsUnder(dir: string): { file: string; spec: string }[] {
  const out: { file: string; spec: string }[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) out.push({ file: full, spec: m[1] });
      }
    }
  };
  walk(dir);
  return out;
}

const layerOf = (file: string, spec: string): string | undefined => {
  const resolved = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : undefined;
  const parts = resolved?.split(path.sep).join('/').split('/');
  return parts?.[0] === 'lib' ? parts[1].replace(/\.tsx?$/, '') : resolved?.split('/')[0];
};

const DOMAINS = readdirSync('lib', { withFileTypes: true })
  .filter((e) => e.isDirectory() && !['http', 'core', 'db'].includes(e.name))
  .map((e) => e.name);

describe('dependencies point one way: app → lib/http → lib/<domain> → lib/core, lib/db', () => {
  it.each(DOMAINS)('lib/%s imports neither lib/http nor next/*', (domain) => {
    const bad = importsUnder(`lib/${domain}`).filter(({ file, spec }) => layerOf(file, spec) === 'http' || spec === 'next' || spec.startsWith('next/'));
    expect(bad).toEqual([]);
  });

  it('lib/core imports nothing of the layers above it', () => {
    const bad = importsUnder('lib/core').filter(({ file, spec }) => {
      const layer = layerOf(file, spec);
      return (spec.startsWith('@/') || spec.startsWith('.')) && layer !== 'core';
    });
    expect(bad).toEqual([]);
  });

  it('lib/db imports only lib/core and itself', () => {
    const bad = importsUnder('lib/db').filter(({ file, spec }) => (spec.startsWith('@/') || spec.startsWith('.')) && !['core', 'db'].includes(layerOf(file, spec)!));
    expect(bad).toEqual([]);
  });
});
