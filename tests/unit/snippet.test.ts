import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SNIPPET } from '@/lib/visitors/snippet.min';
import { renderMinifiedSnippet } from '../../scripts/snippet-build';

describe('the tracking tag served at /t.js', () => {
  it('is the minified form of lib/visitors/snippet.ts (run `npm run snippet` after changing it)', () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../lib/visitors/snippet.min.ts'), 'utf8');
    expect(committed).toBe(renderMinifiedSnippet());
  });

  it('stays within 4 KB gzipped and is a script a browser parses', () => {
    expect(gzipSync(SNIPPET).length).toBeLessThanOrEqual(4096);
    expect(() => new Function(SNIPPET)).not.toThrow();
  });
});
