import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { GET as exportRoute } from '@/app/sites/[site_id]/analytics/export/route';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { unzip } from '@/tests/helpers/unzip';

/**
 * The export of a period as a zip of CSVs, over visits tracked through the real routes: the files,
 * their figures, values a spreadsheet would run as formulas, bad periods, and another site's data.
 */
let mine: Tenant;
let other: Tenant;
const useClock = testClock();
const D0 = Date.parse('2026-11-10T00:00:00Z');
const HOUR = 3_600_000;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function visit(t: Tenant, at: number, url: string) {
  useClock(at);
  const headers = { ...presenters.xSaApiKey(t.key), 'user-agent': UA };
  const started = await call(createRoute, {
    method: 'POST',
    path: '/api/visitors/session',
    headers,
    body: { site_id: t.siteId, fingerprint: `fp-${Math.random().toString(36).slice(2)}`, url },
  });
  expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
  const tracked = await call(trackRoute, {
    method: 'POST',
    path: '/api/visitors/track',
    headers,
    body: { site_id: t.siteId, session_id: started.body.data.session_id, event_type: 'pageview', url },
  });
  expect(tracked.status).toBe(201);
}

beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  const campaign = encodeURIComponent('=HYPERLINK("http://evil.example","win")');
  await visit(mine, D0 + 9 * HOUR, `https://shop.example.com/?utm_source=%40mail&utm_campaign=${campaign}`);
  await visit(mine, D0 + 10 * HOUR, 'https://shop.example.com/pricing?utm_source=news,letter&utm_campaign=spring');
  await visit(mine, D0 + 24 * HOUR + HOUR, 'https://shop.example.com/pricing');
  await visit(other, D0 + 9 * HOUR, 'https://shop.example.com/secret-page?utm_campaign=theirs');
});

const exported = (t: Tenant, query: Record<string, string>) =>
  call(exportRoute, { path: `/sites/${t.siteId}/analytics/export`, params: { site_id: t.siteId }, headers: presenters.xApiKey(t.readKey), query });

const rowsOf = (file: Buffer) =>
  file
    .toString('utf8')
    .split('\r\n')
    .filter((l) => l !== '');

describe('GET /sites/{site_id}/analytics/export', () => {
  it('answers a zip with the day-by-day figures and every breakdown, formula-safe, of this site only', async () => {
    useClock(D0 + 5 * 24 * HOUR);
    const res = await exported(mine, { from: '2026-11-10', to: '2026-11-12' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="analytics-2026-11-10-to-2026-11-12.zip"');
    const files = unzip(res.body as Buffer);
    expect([...files.keys()]).toEqual([
      'overview.csv',
      'pages.csv',
      'entry_pages.csv',
      'exit_pages.csv',
      'referrers.csv',
      'utm_sources.csv',
      'utm_mediums.csv',
      'utm_campaigns.csv',
      'countries.csv',
      'devices.csv',
      'browsers.csv',
      'operating_systems.csv',
      'outbound_links.csv',
      'downloads.csv',
      'utm_terms.csv',
      'utm_contents.csv',
      'goals.csv',
    ]);
    expect(rowsOf(files.get('overview.csv')!)).toEqual([
      'date,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,new_leads',
      '2026-11-10,2,2,2,1,0,0,0',
      '2026-11-11,1,1,1,1,0,0,0',
      '2026-11-12,0,0,0,,,0,0',
      'total,3,3,3,1,0,0,0',
    ]);
    const campaigns = rowsOf(files.get('utm_campaigns.csv')!);
    expect(campaigns[0]).toBe(
      'value,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,conversion_rate,clicks,avg_engaged_ms,avg_scroll_depth',
    );
    expect(campaigns).toContain(`"'=HYPERLINK(""http://evil.example"",""win"")",,1,1,1,0,0,,,,`);
    expect(campaigns).toContain('spring,,1,1,1,0,0,,,,');
    const sources = rowsOf(files.get('utm_sources.csv')!);
    expect(sources).toContain(`'@mail,,1,1,1,0,0,,,,`);
    expect(sources).toContain(`"news,letter",,1,1,1,0,0,,,,`);
    expect(rowsOf(files.get('pages.csv')!).map((r) => r.split(',')[0])).toEqual(['value', '/pricing', '/']);
    const everything = [...files.values()].map((f) => f.toString('utf8')).join('');
    expect(everything).not.toContain('secret-page');
    expect(everything).not.toContain('theirs');
  });

  it('refuses a bad period with 400 naming the field', async () => {
    const res = await exported(mine, { from: '2026-11-12', to: '2026-11-10' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details.issues[0].path).toBe('query.from');
    expect((await exported(mine, { format: 'xlsx' })).status).toBe(400);
  });
});
