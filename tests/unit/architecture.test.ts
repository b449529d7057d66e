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

const isRepository = (spec: string) => /(^|\/)([a-z-]+-)?repo$/.test(spec);

describe('the console kit (components/) stands below the pages (app/)', () => {
  const intoApp = (imports: { file: string; spec: string }[]) => imports.filter(({ file, spec }) => layerOf(file, spec) === 'app');

  it('nothing under components/ imports from app/', () => {
    expect(intoApp(importsUnder('components'))).toEqual([]);
  });

  it('the rule sees an import of app/, by alias and by relative path', () => {
    const imports = [
      { file: 'components/kit/card.tsx', spec: '@/app/(console)/_lib/forms' },
      { file: 'components/time.tsx', spec: '../app/(console)/_lib/session' },
      { file: 'components/time.tsx', spec: '@/components/dates' },
      { file: 'components/kit/card.tsx', spec: '../field' },
      { file: 'components/time.tsx', spec: '@/lib/core/errors' },
    ];
    expect(intoApp(imports).map((i) => i.spec)).toEqual(['@/app/(console)/_lib/forms', '../app/(console)/_lib/session']);
  });
});

/** The lib/ module an import names, read from the specifier alone (`@/lib/leads/repo`, or `../leads/repo` from lib/visitors/x.ts). */
function libModule(file: string, spec: string): string | undefined {
  const from = file.split(path.sep).join('/');
  const named = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.posix.join(path.posix.dirname(from), spec) : undefined;
  return named?.startsWith('lib/') ? named : undefined;
}

/**
 * Pairs of lib/ folders that import each other (`lib/agents ↔ lib/workflows`), each once, in name
 * order: between two domains the dependency runs one way, the lower one naming a port the entries
 * wire when it must reach up.
 */
function mutualFolderPairs(imports: { file: string; spec: string }[]): string[] {
  const edges = new Set<string>();
  for (const { file, spec } of imports) {
    const from = file.split(path.sep).join('/').split('/');
    const to = libModule(file, spec)?.split('/');
    // Folders only: a file directly under lib/ is no domain.
    if (from[0] === 'lib' && from.length > 2 && to && to.length > 2 && to[1] !== from[1]) edges.add(`${from[1]} → ${to[1]}`);
  }
  const pairs = new Set<string>();
  for (const edge of edges) {
    const [a, b] = edge.split(' → ');
    if (edges.has(`${b} → ${a}`)) pairs.add(`lib/${[a, b].sort().join(' ↔ lib/')}`);
  }
  return [...pairs].sort();
}

describe('domains stand apart: no two lib/ folders import each other', () => {
  it('no mutual pair of lib/ folders (static, dynamic and type-only imports alike)', () => {
    expect(mutualFolderPairs(importsUnder('lib'))).toEqual([]);
  });

  it('the rule sees what it is for', () => {
    // Each sample is `importer → specifier`.
    const pairsOf = (...imports: string[]) => mutualFolderPairs(imports.map((i) => ({ file: i.split(' → ')[0], spec: i.split(' → ')[1] })));
    expect(pairsOf('lib/workflows/catalog.ts → @/lib/agents/workflow-message', 'lib/agents/dispatch.ts → ../workflows/service')).toEqual([
      'lib/agents ↔ lib/workflows',
    ]);
    // Any files of the two folders, by alias or relative path; each pair once.
    expect(
      pairsOf('lib/visitors/ingest.ts → @/lib/leads/schema', 'lib/leads/repo.ts → ../visitors/repo', 'lib/leads/service.ts → @/lib/visitors/service'),
    ).toEqual(['lib/leads ↔ lib/visitors']);
    // One way, within a folder, or a file directly under lib/: no pair.
    expect(
      pairsOf(
        'lib/agents/service.ts → @/lib/commands/service',
        'lib/sequences/service.ts → @/lib/email/service',
        'lib/email/service.ts → ./reactions',
        'lib/config.ts → @/lib/email/service',
        'lib/email/service.ts → @/lib/config',
        'lib/core/log.ts → node:util',
      ),
    ).toEqual([]);
    // On the tree: the folders do import one another (the rule reads real edges).
    const crossing = importsUnder('lib').filter(({ file, spec }) => {
      const to = libModule(file, spec)?.split('/');
      return to && to.length > 2 && to[1] !== file.split(path.sep)[1];
    });
    expect(crossing.length).toBeGreaterThan(100);
  });
});

/** Imports of another lib/ folder's repository, as `importer → repository` (`lib/leads/service.ts → lib/visitors/repo`). */
function foreignRepositoryImports(imports: { file: string; spec: string }[]): string[] {
  return imports.flatMap(({ file, spec }) => {
    const from = file.split(path.sep).join('/');
    const to = libModule(file, spec);
    return to && isRepository(to) && to.split('/')[1] !== from.split('/')[1] ? [`${from} → ${to}`] : [];
  });
}

describe('data access: repositories are reached through their domain', () => {
  it('nothing under app/ (routes, console, docs) imports a repository: it calls the domain', () => {
    const bad = importsUnder('app').filter(({ spec }) => isRepository(spec));
    expect(bad).toEqual([]);
  });

  // lib/worker is the composition root, as app/ is an entry: the rules of the layers above hold for it.
  const libImports = () => importsUnder('lib').filter(({ file }) => !file.split(path.sep).join('/').startsWith('lib/worker/'));

  it("no lib/ file imports another domain's repository: it calls that domain's service", () => {
    const bad = foreignRepositoryImports(libImports());
    expect(bad).toEqual([]);
  });

  it('the rule sees what it is for', () => {
    const seen = (file: string, spec: string) => foreignRepositoryImports([{ file, spec }]);
    expect(seen('lib/leads/service.ts', '@/lib/visitors/repo')).toEqual(['lib/leads/service.ts → lib/visitors/repo']);
    expect(seen('lib/visitors/service.ts', '../leads/repo')).toEqual(['lib/visitors/service.ts → lib/leads/repo']);
    expect(seen('lib/auth/session.ts', '@/lib/users/sessions-repo')).toHaveLength(1);
    expect(seen('lib/tools/leads.ts', '@/lib/leads/properties-repo')).toHaveLength(1);
    for (const [file, spec] of [
      ['lib/leads/service.ts', './repo'],
      ['lib/leads/export.ts', '@/lib/leads/properties-repo'],
      ['lib/visitors/service.ts', '@/lib/leads/service'],
      ['lib/leads/repo.ts', '@/lib/db/client'],
      ['lib/email/service.ts', './reports'],
      ['lib/leads/service.ts', 'drizzle-orm'],
    ]) {
      expect(seen(file, spec), `${file} → ${spec}`).toEqual([]);
    }
    // On the tree: the domains' own repository imports resolve to their folder (the rule reads real paths).
    const own = libImports().filter(({ file, spec }) => isRepository(spec) && libModule(file, spec)?.split('/')[1] === file.split(path.sep)[1]);
    expect(own.length).toBeGreaterThan(50);
  });
});

/**
 * SQL outside the repositories: in a file under lib/ (but lib/db), app/ or components/ that is not a
 * repository (`repo.ts`, `*-repo.ts`), any `sql` template (or `sql.raw`), any value imported from
 * `drizzle-orm`, the typed schema (`lib/db/schema`) or the statement helpers (`lib/db/raw`), and any
 * value of the database client (`lib/db/client`) but the process wiring a composition root uses to
 * place the database (CLIENT_WIRING). Type-only imports pass: a service may name the transaction it
 * hands a repository, and a row's type. lib/db's other modules (locks, batching, announcements,
 * error kinds) run no statement of a domain and pass too.
 */
const DB_VALUE_MODULES = ['lib/db/schema', 'lib/db/raw'];
const CLIENT_WIRING = new Set([
  'useEmbeddedHost',
  'writableDataDir',
  'embeddedDataDir',
  'embeddedPrepared',
  'markEmbeddedPrepared',
  'openDatabase',
  'openMigratedDatabase',
  'useDatabase',
  'openProcessDatabase',
  'closeProcessDatabase',
]);
const isRepositoryFile = (file: string) => /(^|\/)([a-z-]+-)?repo\.ts$/.test(file);

/** The lib/db module (`lib/db/<name>`, no extension) an import specifier of `file` names, if any. */
function dbModule(file: string, spec: string): string | undefined {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(file), spec) : undefined;
  const normal = base && path.normalize(base).split(path.sep).join('/');
  return normal?.startsWith('lib/db/') ? normal.replace(/\.tsx?$/, '') : undefined;
}

function sqlOutsideRepositories(text: string, file = 'sample.ts'): string[] {
  const found: string[] = [];
  // `sql` templates, not the word in a comment or a code span (`sql`).
  for (const [i, line] of text.split('\n').entries()) {
    if (/(?<![`\w.$])sql(<[^>]*>)?`|(?<![`\w.$])sql\.raw\(/.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
  }
  const statements = /import\s+(type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+[\w$]+)?\s*from\s*'([^']+)'|import\s*\(\s*'([^']+)'\s*\)/g;
  for (const m of text.matchAll(statements)) {
    const [whole, typeOnly, defaultName, braces, fromSpec, dynamicSpec] = m;
    const spec = fromSpec ?? dynamicSpec;
    if (typeOnly) continue;
    const values = dynamicSpec
      ? ['import()']
      : [
          ...(defaultName ? [defaultName] : []),
          ...(braces ?? '')
            .split(',')
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith('type ')),
          ...(/\*\s+as\s+/.test(whole) ? ['*'] : []),
        ].map((n) => n.split(/\s+as\s+/)[0]);
    if (values.length === 0) continue;
    const db = dbModule(file, spec);
    const bad =
      spec === 'drizzle-orm' || spec.startsWith('drizzle-orm/')
        ? values
        : db && DB_VALUE_MODULES.includes(db)
          ? values
          : db === 'lib/db/client'
            ? values.filter((n) => !CLIENT_WIRING.has(n))
            : [];
    if (bad.length) found.push(`${file}: ${bad.join(', ')} from '${spec}'`);
  }
  return found;
}

/**
 * Non-repository files that still hold SQL, each in a folder whose own rework removes it: the
 * embedded engine's run store and the Temporal engine's start keys (their statements), the run-end
 * event's own transaction, the robots' slot claim (a locked transaction), the worker process (opens
 * and closes the process database). The list only shrinks.
 */

describe('SQL lives in repositories (`repo.ts`, `*-repo.ts`) and lib/db', () => {
  const files = ['lib', 'app', 'components'].flatMap(sourcesUnder).filter((f) => !f.startsWith('lib/db/') && !isRepositoryFile(f));

  it('no sql template, drizzle import, schema, statement helper or database handle in any other file', () => {
    const found = files.flatMap((f) => sqlOutsideRepositories(readFileSync(f, 'utf8'), f));
    expect(found).toEqual([]);
  });

  it('the rule sees what it is for', () => {
    const flagged = [
      "import { sql } from 'drizzle-orm';",
      "import { eq, type SQL } from 'drizzle-orm';",
      "import { getDb } from '@/lib/db/client';",
      "import { getDb, type Db } from '@/lib/db/client';",
      "import { database } from '../db/client';",
      "import { leads } from '@/lib/db/schema';",
      "import { rows } from '@/lib/db/raw';",
      "import * as schema from '@/lib/db/schema';",
      "const client = await import('@/lib/db/client');",
      'const q = sql`select 1`;',
      'const n = sql<number>`count(*)`;',
      "const raw = sql.raw('select 1');",
    ];
    for (const sample of flagged) expect(sqlOutsideRepositories(`${sample}\n`, 'lib/sample/service.ts'), sample).toHaveLength(1);
    const passed = [
      "import type { Db } from '@/lib/db/client';",
      "import { type Db } from '@/lib/db/client';",
      "import type { SiteRole } from '@/lib/db/schema';",
      "import { useEmbeddedHost, embeddedDataDir } from '@/lib/db/client';",
      "import { withLock } from '@/lib/db/lock';",
      "import { sharedBatcher } from '@/lib/db/batch';",
      "import { rows } from '@/lib/leads/schema';",
      '/** 1-based line of a byte offset of `sql`. */',
      'const text = input.sql;',
    ];
    for (const sample of passed) expect(sqlOutsideRepositories(`${sample}\n`, 'lib/sample/service.ts'), sample).toEqual([]);
    expect(['lib/leads/repo.ts', 'lib/visitors/sessions-repo.ts'].every(isRepositoryFile)).toBe(true);
    expect(['lib/leads/service.ts', 'lib/leads/repository.ts', 'lib/leads/repo-helpers.ts'].some(isRepositoryFile)).toBe(false);
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
      .filter(({ file, spec }) => libFile(file, spec) === 'lib/worker/activities.ts')
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

/** Every .ts/.tsx file under `dir`, with forward slashes. */
function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) out.push(full.split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

const PROCESS_STATE = 'lib/core/process-state.ts';

/**
 * Module-level mutable state, read from the text of the file's top level (lines that start at column
 * 0): a `let`/`var`, a `new Map`/`WeakMap`/`WeakSet` or an empty `new Set()`/`[]`/`{}` bound to a
 * constant, and any use of `globalThis`. A Set built from a list of constants is a lookup table,
 * not state.
 */
function moduleState(text: string, file = 'sample'): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const where = `${file}:${i + 1}: ${line.trim()}`;
    if (/\bglobalThis\b/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)) found.push(where);
    else if (/^(export )?(let|var) /.test(line)) found.push(where);
    else if (/^(export )?const \w+(: [^=]+)? = (new (Map|WeakMap|WeakSet)\b|new Set(<[^>]*>)?\(\)|\[\];?$|\{\};?$)/.test(line)) found.push(where);
  }
  return found;
}

describe('process-wide state lives in one module (lib/core/process-state.ts)', () => {
  const files = ['lib', 'app', 'components'].flatMap(sourcesUnder).filter((f) => f !== PROCESS_STATE);

  it('no module-level mutable state, and no globalThis, anywhere else', () => {
    expect(files.flatMap((file) => moduleState(readFileSync(file, 'utf8'), file))).toEqual([]);
  });

  it('the rule sees what it is for', () => {
    const samples = [
      'let cached: string | undefined;',
      'const cache = new Map<string, number>();',
      'const seen = new Set<string>();',
      'const holder = globalThis as { x?: 1 };',
    ];
    for (const sample of samples) expect(moduleState(`${sample}\n`), sample).toHaveLength(1);
    expect(
      moduleState("const KINDS = new Set(['a', 'b']);\nconst state = processState('x', () => new Map());\nfunction f() {\n  let x = 1;\n}\n"),
    ).toEqual([]);
  });

  it('each slot of the process state is taken by one module', () => {
    const takers = new Map<string, string[]>();
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/processState(?:<[^>]*>)?\(\s*[`']([^`']+)[`']/g)) {
        takers.set(m[1], [...(takers.get(m[1]) ?? []), file]);
      }
    }
    expect(takers.size).toBeGreaterThan(10);
    expect([...takers].filter(([, by]) => by.length > 1)).toEqual([]);
  });
});

describe('the fast path serves only what declares it', () => {
  it('every handler the fast path serves declares `fastPath` (an OPTIONS preflight goes with its route)', async () => {
    const { FAST_ROUTES } = await import('@/scripts/fast-routes');
    const { declaresFastPath } = await import('@/scripts/route-files');
    const undeclared = FAST_ROUTES.flatMap(({ path: p, module }) =>
      Object.entries(module)
        .filter(([method, handler]) => method !== 'OPTIONS' && typeof handler === 'function' && !declaresFastPath(handler))
        .map(([method]) => `${method} ${p}`),
    );
    expect(undeclared).toEqual([]);
    expect(FAST_ROUTES.length).toBeGreaterThan(0);
  }, 60_000);
});
