import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    const bad = importsUnder(`lib/${domain}`).filter(
      ({ file, spec }) => layerOf(file, spec) === 'http' || spec === 'next' || spec.startsWith('next/'),
    );
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
    const bad = importsUnder('lib/db').filter(
      ({ file, spec }) => (spec.startsWith('@/') || spec.startsWith('.')) && !['core', 'db'].includes(layerOf(file, spec)!),
    );
    expect(bad).toEqual([]);
  });
});

describe('data access: repositories are reached through their domain', () => {
  const isRepository = (spec: string) => /(^|\/)([a-z-]+-)?repo$/.test(spec);

  it('nothing under app/ (routes, console, docs) imports a repository: it calls the domain', () => {
    const bad = importsUnder('app').filter(({ spec }) => isRepository(spec));
    expect(bad).toEqual([]);
  });
});

/** The lib/ file an import specifier names (`@/…` or relative), if it is one. */
function libFile(file: string, spec: string): string | undefined {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(file), spec) : undefined;
  if (!base) return undefined;
  const hit = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => existsSync(c));
  const normal = hit && path.normalize(hit).split(path.sep).join('/');
  return normal?.startsWith('lib/') ? normal : undefined;
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
function importCircles(): string[][] {
  const graph = new Map<string, string[]>();
  for (const { file, spec } of importsUnder('lib')) {
    const from = file.split(path.sep).join('/');
    const to = libFile(file, spec);
    if (!graph.has(from)) graph.set(from, []);
    if (to) graph.get(from)!.push(to);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('composition: no import circle, activities only in worker entries', () => {
  it('no import circle among lib/ files (static, dynamic and type-only imports alike)', () => {
    expect(importCircles()).toEqual([]);
  });

  it('only the worker composition root (lib/worker) imports the activities implementation', () => {
    const importers = [...importsUnder('lib'), ...importsUnder('app')]
      .filter(({ file, spec }) => libFile(file, spec) === 'lib/workflows/activities-impl.ts')
      .map(({ file }) => file.split(path.sep).join('/'));
    expect(importers.every((f) => f.startsWith('lib/worker/'))).toBe(true);
    expect(importers.length).toBeGreaterThan(0);
  });

  it('the web side (app/, instrumentation, lib/ outside the worker) never imports the worker root', () => {
    const web = [...importsUnder('lib'), ...importsUnder('app')].filter(({ file }) => !file.split(path.sep).join('/').startsWith('lib/worker/'));
    const text = readFileSync('instrumentation.ts', 'utf8');
    const fromInstrumentation = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => ({ file: 'instrumentation.ts', spec: m[1] }));
    const bad = [...web, ...fromInstrumentation].filter(({ file, spec }) => libFile(file, spec)?.startsWith('lib/worker/'));
    expect(bad).toEqual([]);
  });
});
