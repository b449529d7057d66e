// route-manifest: exempt — the reference renderer's script for /docs, not an API operation
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { processState } from '@/lib/core/process-state';

/** Scalar's self-contained browser build, from the installed package: /docs needs no CDN and works offline. */
const BUNDLE = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');

// GET /docs/reference.js — the API reference renderer (Scalar) served from this app
export async function GET(): Promise<Response> {
  return new Response(new Uint8Array(await processState('docs.referenceBundle', () => readFile(BUNDLE))), {
    headers: { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
