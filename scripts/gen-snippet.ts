import { writeFileSync } from 'node:fs';
import { renderMinifiedSnippet } from './snippet-build';

const target = 'lib/visitors/snippet.min.ts';
writeFileSync(target, renderMinifiedSnippet());
console.log(`wrote ${target}`);
