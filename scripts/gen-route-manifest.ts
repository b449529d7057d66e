import { writeFileSync } from 'node:fs';
import { findRouteFiles, renderFastRoutes, renderManifest, renderRouteTable, withFastPath } from './route-files';

async function main() {
  const files = await withFastPath(findRouteFiles());
  for (const [target, source] of [
    ['app/api/openapi.json/manifest.ts', renderManifest(files)],
    ['lib/http/route-table.json', renderRouteTable(files)],
    ['scripts/fast-routes.ts', renderFastRoutes(files)],
  ]) {
    writeFileSync(target, source);
    console.log(`wrote ${target}`);
  }
  // The imported route modules leave handles (database, timers) open: the generator is done.
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
