/**
 * Bundles the server entry's companions into `.next`: the worker (`scripts/worker.ts` →
 * `.next/worker.cjs`, the file `npm start` runs as its worker process) and the ingestion fast path
 * (`scripts/fast-path.ts` → `.next/fast-path.cjs`, loaded by `server.mjs`). Packages stay in
 * node_modules. Without the worker bundle (`next build` alone, tests) the worker runs from its
 * TypeScript sources through tsx; without the fast-path bundle `server.mjs` sends every request to
 * Next. `next build` empties `.next`, so a bundle never outlives the build it was made with.
 */
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning' };

await Promise.all([
  build({ ...common, entryPoints: ['scripts/worker.ts'], outfile: '.next/worker.cjs' }),
  build({ ...common, entryPoints: ['scripts/fast-path.ts'], outfile: '.next/fast-path.cjs' }),
]);
