import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { readPageToken, visibilityQuery, writePageToken } from '@/lib/workflows/engines/temporal/engine';

const site = '5b0d6c1e-4a8f-4c1e-9d7b-2f3e4a5b6c7d';

describe('Temporal visibility query', () => {
  it('always scopes by site_id and adds each filter', () => {
    expect(visibilityQuery({ siteId: site, limit: 20 })).toBe(`site_id = "${site}"`);
    expect(
      visibilityQuery({
        siteId: site,
        limit: 20,
        status: 'CANCELLED',
        type: 'leadGenerationWorkflow',
        from: new Date('2026-01-01T00:00:00Z'),
        to: new Date('2026-02-01T00:00:00Z'),
      }),
    ).toBe(
      `site_id = "${site}" AND ExecutionStatus = "Canceled" AND WorkflowType = "leadGenerationWorkflow"` +
        ` AND StartTime >= "2026-01-01T00:00:00.000Z" AND StartTime < "2026-02-01T00:00:00.000Z"`,
    );
  });

  it('refuses values that would change the query', () => {
    for (const type of ['x" OR site_id != "y', "a'b", 'a b']) {
      expect(() => visibilityQuery({ siteId: site, limit: 20, type })).toThrow(ApiError);
    }
  });
});

describe('Temporal page token', () => {
  const query = visibilityQuery({ siteId: site, limit: 20 });
  const inner = new Uint8Array([123, 34, 0, 255, 7]);

  it('round-trips the cluster’s token as URL-safe text', () => {
    const token = writePageToken(site, query, inner);
    expect(token).toMatch(/^[\w-]+\.[\w-]{22}$/);
    expect(readPageToken(token, site, query)).toEqual(inner);
    expect(readPageToken(undefined, site, query)).toBeUndefined();
  });

  it('refuses garbage, another site’s token and another query’s token as INVALID_REQUEST', () => {
    const token = writePageToken(site, query, inner);
    const other = visibilityQuery({ siteId: site, limit: 20, status: 'RUNNING' });
    for (const [pageToken, siteId, q] of [
      ['!!!', site, query],
      ['', site, query],
      ['bm90IGpzb24', site, query],
      [`${token.split('.')[0]}x.${token.split('.')[1]}`, site, query],
      [`${token.split('.')[0]}.${'A'.repeat(22)}`, site, query],
      [Buffer.from('{"s":1}').toString('base64url'), site, query],
      [token, '00000000-0000-4000-8000-000000000000', query],
      [token, site, other],
    ] as const) {
      let error: unknown;
      try {
        readPageToken(pageToken, siteId, q);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('INVALID_REQUEST');
    }
  });
});
