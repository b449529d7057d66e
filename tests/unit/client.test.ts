import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, renderClientSchema } from '@/scripts/gen-client';

// The typed client is generated from the routes' declarations: a route changed without `npm run client` fails here.
it('the typed client matches the routes (run `npm run client` after changing a route)', async () => {
  expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8') === (await renderClientSchema()), `${CLIENT_SCHEMA_FILE} is stale: run npm run client`).toBe(true);
}, 120_000);
