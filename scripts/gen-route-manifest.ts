import { writeFileSync } from 'node:fs';
import { findRouteFiles, renderFastRoutes, renderManifest, renderRouteTable } from './route-files';

const files = findRouteFiles();
for (const [target, source] of [
  ['app/api/openapi.json/manifest.ts', renderManifest(files)],
  ['lib/http/route-table.json', renderRouteTable(files)],
  ['scripts/fast-routes.ts', renderFastRoutes(files)],
]) {
  writeFileSync(target, source);
  console.log(`wrote ${target}`);
}
