import { writeFileSync } from 'node:fs';
import { findRouteFiles, renderManifest, renderRouteTable } from './route-files';

const files = findRouteFiles();
for (const [target, source] of [
  ['app/api/openapi.json/manifest.ts', renderManifest(files)],
  ['lib/http/route-table.json', renderRouteTable(files)],
]) {
  writeFileSync(target, source);
  console.log(`wrote ${target}`);
}
