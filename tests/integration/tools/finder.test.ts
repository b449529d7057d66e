import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { getFinderCategoryIdsTool } from '@/lib/tools/finder';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { CATALOGUE, startPeopleDataStandIn } from '@/tests/helpers/people-data-standin';
import { startMcp, viaMcp, viaRest, withoutRequestId } from '@/tests/helpers/tools';

let mine: Tenant;
let mcp: Awaited<ReturnType<typeof startMcp>>;
let client: Client;
beforeAll(async () => {
  mine = await createTenant();
  mcp = await startMcp();
  client = await mcp.connect(presenters.bearer(mine.readKey));
});
afterAll(async () => {
  await mcp?.close();
});

const find = (query: string) => viaRest(getFinderCategoryIdsTool, presenters.bearer(mine.readKey), { site_id: mine.siteId, query });

describe('getFinderCategoryIds without a provider', () => {
  beforeAll(() => {
    delete process.env.PEOPLE_DATA_API_URL;
    resetConfig();
  });

  it('answers 503 PROVIDER_NOT_CONFIGURED, identically through REST and MCP', async () => {
    const rest = await find('software');
    expect(rest.status).toBe(503);
    expect(rest.body).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_NOT_CONFIGURED', message: expect.stringContaining('PEOPLE_DATA_API_URL') },
    });
    const viaProtocol = await viaMcp(client, 'getFinderCategoryIds', { site_id: mine.siteId, query: 'software' });
    expect(viaProtocol.status).toBe(503);
    expect(withoutRequestId(viaProtocol.body)).toEqual(withoutRequestId(rest.body));
  });
});

describe('getFinderCategoryIds with the provider configured (local stand-in)', () => {
  let standIn: Awaited<ReturnType<typeof startPeopleDataStandIn>>;
  beforeAll(async () => {
    standIn = await startPeopleDataStandIn('secret-provider-key');
    process.env.PEOPLE_DATA_API_URL = standIn.url;
    process.env.PEOPLE_DATA_API_KEY = 'secret-provider-key';
    resetConfig();
  });
  afterAll(async () => {
    await standIn.close();
    delete process.env.PEOPLE_DATA_API_URL;
    delete process.env.PEOPLE_DATA_API_KEY;
    resetConfig();
  });

  it('returns the provider’s matching category ids', async () => {
    const res = await find('Software');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, query: 'Software', results: CATALOGUE.filter((c) => /software/i.test(c.name)) });
    expect(standIn.requests.at(-1)).toBe('/categories/search?query=Software');
    const viaProtocol = await viaMcp(client, 'getFinderCategoryIds', { site_id: mine.siteId, query: 'Software' });
    expect(viaProtocol).toEqual({ status: 'ok', body: res.body });
  });

  it('answers 502 PROVIDER_ERROR when the provider fails or refuses the key', async () => {
    const failed = await find('explode');
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'PROVIDER_ERROR', details: { provider_status: 500 } });
    process.env.PEOPLE_DATA_API_KEY = 'wrong';
    resetConfig();
    const refused = await find('software');
    expect(refused.status).toBe(502);
    expect(refused.body.error.details).toEqual({ provider_status: 401 });
  });
});
