import { writeFileSync } from 'node:fs';
import { findRouteFiles, renderManifest } from './route-files';

const target = 'app/api/openapi.json/manifest.ts';
writeFileSync(target, renderManifest(findRouteFiles()));
console.log(`wrote ${target}`);
