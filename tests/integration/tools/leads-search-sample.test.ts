import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '@/lib/db/raw';
import { LEAD_SEARCH_SORT_CAP, LEAD_SEARCH_WALK, SEARCH_SAMPLE } from '@/lib/leads/repo';
import { getLeadsTool } from '@/lib/tools/leads';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { SEARCHED_SORTS, viaRest } from '@/tests/helpers/tools';

// A search sorted by a searched field that the walk of the sort key's index does not fill is counted
// on the sampled quarter of the leads first (lib/leads/repo.ts, searchSortedBySearchedField), then on
// all of them. The ids are chosen:
// a lead is in the sample when its id's last byte is below 64, so each test knows how many are.
const WIDE = 24_000;
const IN_SAMPLE = LEAD_SEARCH_SORT_CAP + 1;

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
  // LEAD_SEARCH_WALK leads whose names and emails sort first, without a company (first by company,
  // descending), that match nothing; then WIDE "Wideco" leads, the first IN_SAMPLE of them sampled.
  await rows(sql`insert into leads (site_id, name, email)
    select ${tenant.siteId}::uuid, 'Aaa ' || lpad(i::text, 5, '0'), 'aaa' || i || '@example.net'
    from generate_series(1, ${LEAD_SEARCH_WALK}) as i`);
  await rows(sql`insert into leads (id, site_id, name, email, company)
    select overlay(md5(${tenant.siteId} || i) placing case when i <= ${IN_SAMPLE} then '00' else 'ff' end from 31)::uuid,
      ${tenant.siteId}::uuid, 'Wid ' || lpad(i::text, 5, '0'), 'wid' || i || '@example.net', 'Wideco'
    from generate_series(1, ${WIDE}) as i`);
  // Statistics for the planner's choice of index (the embedded database has no autovacuum to gather them).
  await rows(sql`analyze leads`);
}, 120_000);

const get = (body: Record<string, unknown>) => viaRest(getLeadsTool, presenters.bearer(tenant.readKey), { site_id: tenant.siteId, ...body });
const names = (res: { body: { leads: { name: string }[] } }) => res.body.leads.map((l) => l.name);
const wid = (i: number) => `Wid ${String(i).padStart(5, '0')}`;

describe('leads/get: a broad search sorted by a searched field, counted on the sample of the leads', () => {
  it('the sample of the leads has its own trigram index, which serves the predicate the search writes', async () => {
    // The count of a broad search as the refusal writes it. (For a term a few leads match, both
    // trigram indexes cost alike, and which one the planner picks turns on how full their pending lists are.)
    const plan = await rows<{ 'QUERY PLAN': string }>(
      sql`explain select count(*) from (select 1 from leads where site_id = ${tenant.siteId} and search_text like '%wideco%' and ${SEARCH_SAMPLE} limit ${LEAD_SEARCH_SORT_CAP + 1}) sampled`,
    );
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('leads_search_text_sample_trgm_idx');
  });

  it('the walk of each searched sort reads the stored search text from its index, as the trigram indexes match it', async () => {
    const indexes = await rows<{ indexname: string; indexdef: string }>(
      sql`select indexname, indexdef from pg_indexes where tablename = 'leads' and indexname like 'leads_site_%_search_idx' order by indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['leads_site_company_search_idx', 'leads_site_email_search_idx', 'leads_site_name_search_idx']);
    for (const { indexdef } of indexes) expect(indexdef).toContain('INCLUDE (search_text, status, segment_id)');
  });

  it('refuses 400 INVALID_REQUEST a search that more than the cap of the sampled leads match, in any searched sort', async () => {
    for (const sort of SEARCHED_SORTS) {
      const res = await get({ search: 'WIDECO', ...sort });
      expect(res.status, sort.sort_by).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    }
    const newest = await get({ search: 'wideco', sort_by: 'created_at', limit: 2 });
    expect(newest.status).toBe(200);
    expect(newest.body).toMatchObject({ total: 3, total_capped: true });
  });

  it('answers a search matching exactly the cap, all sampled, though the statistics still count far more; one more is refused', async () => {
    // Down to the cap, all in the sample; the statistics still count WIDE (no analyze since).
    await rows(sql`delete from leads where site_id = ${tenant.siteId} and company = 'Wideco' and name > ${wid(LEAD_SEARCH_SORT_CAP)}`);
    const first = await get({ search: 'wideco', sort_by: 'name', sort_order: 'asc', limit: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ total: 4, total_capped: true, has_more: true });
    expect(names(first)).toEqual([wid(1), wid(2), wid(3)]);
    const last = await get({ search: 'wideco', sort_by: 'name', sort_order: 'desc', limit: 20, offset: LEAD_SEARCH_SORT_CAP - 10 });
    expect(last.body).toMatchObject({ total: LEAD_SEARCH_SORT_CAP, total_capped: false, has_more: false });
    expect(names(last)).toEqual(Array.from({ length: 10 }, (_, i) => wid(10 - i)));
    const past = await get({ search: 'wideco', sort_by: 'email', sort_order: 'asc', limit: 5, offset: LEAD_SEARCH_SORT_CAP + 5 });
    expect(past.body).toMatchObject({ leads: [], total: LEAD_SEARCH_SORT_CAP, total_capped: false });

    // One more match, outside the sample: the sample alone proves nothing, the count of all refuses.
    await rows(sql`insert into leads (id, site_id, name, email, company)
      values (overlay(md5('one more') placing 'ff' from 31)::uuid, ${tenant.siteId}, ${wid(WIDE + 1)}, 'one.more@example.net', 'Wideco')`);
    const refused = await get({ search: 'wideco', sort_by: 'company', sort_order: 'desc' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
  });
});
