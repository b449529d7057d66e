/**
 * Bundles the worker (`scripts/worker.ts` and the app code it imports) into `.next/worker.cjs`,
 * the file `npm start` runs as its worker process. Packages stay in node_modules. Without the
 * bundle (`next build` alone, tests) the worker runs from its TypeScript sources through tsx;
 * the bundle starts faster and holds less memory. `next build` empties `.next`, so a bundle
 * never outlives the build it was made with.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['scripts/worker.ts'],
  outfile: '.next/worker.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
