import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as getLeadsRoute } from '@/app/api/agents/tools/leads/get/route';
import { POST as updateLeadRoute } from '@/app/api/agents/tools/leads/update/route';
import { GET as exportRoute } from '@/app/api/leads/export/route';
import { GET as importStatusRoute } from '@/app/api/leads/import/[import_id]/route';
import { POST as importRoute } from '@/app/api/leads/import/route';
import { DELETE as deletePropertyRoute, PATCH as patchPropertyRoute } from '@/app/api/leads/properties/[property_id]/route';
import { GET as listPropertiesRoute, POST as createPropertyRoute } from '@/app/api/leads/properties/route';
import { getDb } from '@/lib/db/client';
import { leads } from '@/lib/db/schema';
import { parseCsv } from '@/lib/leads/csv-parse';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { joinedMember } from '@/tests/helpers/members';

/**
 * Lead CSV import and export and custom properties through their routes on a real database:
 * RFC 4180 edge cases, dedupe by email, row errors by row number, whole-file refusals that write
 * nothing, the background import with its progress, export escaping and filters, property
 * validation, isolation between sites and the roles of members.
 */
const bearer = (key: string): Record<string, string> => ({ 'x-api-key': key });

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  await defineProperty(mine, { key: 'plan', label: 'Plan', type: 'choice', options: ['Free', 'Pro', 'Enterprise'] });
  await defineProperty(mine, { key: 'deal_size', label: 'Deal size', type: 'number' });
  await defineProperty(mine, { key: 'renewal', label: 'Renewal', type: 'date' });
  await defineProperty(mine, { key: 'source_note', label: 'Source note', type: 'text' });
});

async function defineProperty(t: Tenant, body: Record<string, unknown>) {
  const res = await call(createPropertyRoute, {
    method: 'POST',
    path: '/api/leads/properties',
    headers: bearer(t.key),
    body: { site_id: t.siteId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { property_id: string; key: string };
}

function importCsv(t: Tenant, csv: string | Uint8Array<ArrayBuffer>, mapping?: Record<string, string | null>, headers = bearer(t.key)) {
  const form = new FormData();
  form.set('file', new File([csv], 'leads.csv', { type: 'text/csv' }));
  if (mapping) form.set('mapping', JSON.stringify(mapping));
  return call(importRoute, { method: 'POST', path: '/api/leads/import', query: { site_id: t.siteId }, headers, form });
}

async function leadOf(t: Tenant, email: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.siteId, t.siteId), eq(leads.email, email)));
  return row;
}

const exportCsv = (t: Tenant, query: Record<string, string> = {}, headers = bearer(t.key)) =>
  call(exportRoute, { path: '/api/leads/export', query: { site_id: t.siteId, ...query }, headers });

describe('CSV import', () => {
  it('reads quoted fields with commas, newlines and quotes, a BOM and CRLF, and maps custom properties', async () => {
    const a = uniqueEmail();
    const b = uniqueEmail();
    const csv =
      '\ufeffEmail,Full name,Company,Plan,Deal size,Notes\r\n' +
      `${a},"Lovelace, Ada","Analytical ""Engines"" Ltd",pro,1200.5,"line one\r\nline two"\r\n` +
      `${b.toUpperCase()},Grace Hopper,,Enterprise,,\r\n`;
    const res = await importCsv(mine, csv, {
      Email: 'email',
      'Full name': 'name',
      Company: 'company',
      Plan: 'plan',
      'Deal size': 'deal_size',
      Notes: 'notes',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'completed', total_rows: 2, created: 2, updated: 0, skipped: 0, errors: [] });
    const ada = await leadOf(mine, a);
    expect(ada).toMatchObject({
      name: 'Lovelace, Ada',
      company: 'Analytical "Engines" Ltd',
      notes: 'line one\r\nline two',
      origin: 'import',
      status: 'new',
    });
    expect(ada.customProperties).toEqual({ plan: 'Pro', deal_size: 1200.5 });
    expect((await leadOf(mine, b)).customProperties).toEqual({ plan: 'Enterprise' });
  });

  it('detects `;` separators and proposes the mapping from the headers when none is given', async () => {
    const e = uniqueEmail();
    const res = await importCsv(mine, `E-mail;First name;Last name;Phone\n${e};Ada;Lovelace;"+44 1; 2"\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.created).toBe(1);
    expect(await leadOf(mine, e)).toMatchObject({ name: 'Ada Lovelace', phone: '+44 1; 2' });
  });

  it('updates an existing lead of the site by email, never duplicating it, and says so', async () => {
    const e = uniqueEmail();
    const created = await call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, name: 'Old Name', email: e, company: 'Kept Co', custom_properties: { source_note: 'fair' } },
    });
    expect(created.status).toBe(201);
    const res = await importCsv(mine, `email,name,company,plan,status\n${e},New Name,,free,Qualified\n`);
    expect(res.body.data).toMatchObject({ created: 0, updated: 1, skipped: 0 });
    const lead = await leadOf(mine, e);
    expect(lead.id).toBe(created.body.lead.id);
    // An empty cell changes nothing; custom properties are merged.
    expect(lead).toMatchObject({ name: 'New Name', company: 'Kept Co', status: 'qualified' });
    expect(lead.customProperties).toEqual({ source_note: 'fair', plan: 'Free' });
  });

  it('skips bad rows and later duplicates of an email, reporting each by its row in the file', async () => {
    const [a, b] = [uniqueEmail(), uniqueEmail()];
    const csv = [
      'email,name,plan,deal_size,renewal,lead_score',
      `${a},Good One,pro,10,2026-01-31,50`,
      `not-an-email,Bad Email,,,,`,
      `"${b}","Quoted\nname spanning lines",,,,`,
      `${uniqueEmail()},Bad Plan,gold,,,`,
      `${uniqueEmail()},Bad Number,,ten,,`,
      `${uniqueEmail()},Bad Date,,,2026-02-30,`,
      `${uniqueEmail()},Bad Score,,,,101`,
      `${a.toUpperCase()},Duplicate,,,,`,
      '',
      `,No Email,,,,`,
    ].join('\n');
    const res = await importCsv(mine, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ total_rows: 9, created: 2, updated: 0, skipped: 7, processed_rows: 9 });
    const byRow = Object.fromEntries(data.errors.map((e: { row: number; message: string }) => [e.row, e.message]));
    expect(Object.keys(byRow).map(Number)).toEqual([3, 5, 6, 7, 8, 9, 11]);
    expect(byRow[3]).toMatch(/email "not-an-email" is not a valid address/);
    expect(byRow[5]).toMatch(/Plan must be one of: Free, Pro, Enterprise/);
    expect(byRow[6]).toMatch(/Deal size must be a number/);
    expect(byRow[7]).toMatch(/Renewal must be a date/);
    expect(byRow[8]).toMatch(/lead_score/);
    expect(byRow[9]).toMatch(/Same email as row 2/);
    expect(byRow[11]).toMatch(/email is missing/);
    expect((await leadOf(mine, a)).name).toBe('Good One');
    expect((await leadOf(mine, a)).customProperties).toEqual({ plan: 'Pro', deal_size: 10, renewal: '2026-01-31' });
    expect((await leadOf(mine, b)).name).toBe('Quoted\nname spanning lines');
  });

  it('refuses a bad file whole, writing nothing', async () => {
    const e = uniqueEmail();
    const cases: [string, string | Uint8Array<ArrayBuffer>, Record<string, string | null> | undefined, RegExp][] = [
      ['unclosed quote', `email,name\n${e},ok\n"${uniqueEmail()},broken\n`, undefined, /quoted field is not closed/],
      ['no email column', `name,company\nAda,${e}\n`, undefined, /No column is mapped to email/],
      ['mapping names a missing column', `email,name\n${e},Ada\n`, { Mail: 'email' }, /not in the file's header/],
      ['mapping names an unknown field', `email,name\n${e},Ada\n`, { email: 'email', name: 'nickname' }, /neither a lead field/],
      ['two columns to one field', `email,name,full\n${e},Ada,Ada L\n`, { email: 'email', name: 'name', full: 'name' }, /both mapped to name/],
      ['not UTF-8', new Uint8Array([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xff, 0xfe, 0x0a]), undefined, /not UTF-8/],
      ['header only', 'email,name\n', undefined, /no rows below its header/],
      ['empty', '', undefined, /empty/],
    ];
    for (const [what, csv, mapping, message] of cases) {
      const res = await importCsv(mine, csv, mapping);
      expect(res.status, what).toBe(400);
      expect(res.body, what).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
      expect(res.body.error.message, what).toMatch(message);
    }
    expect(await leadOf(mine, e)).toBeUndefined();
    const bad = await importCsv(mine, 'email\nx@example.com\n', { email: 'email' });
    expect(bad.status).toBe(200);
    const notJson = new FormData();
    notJson.set('file', new File(['email\nx@example.com\n'], 'a.csv'));
    notJson.set('mapping', '{not json');
    const res = await call(importRoute, {
      method: 'POST',
      path: '/api/leads/import',
      query: { site_id: mine.siteId },
      headers: bearer(mine.key),
      form: notJson,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/mapping is not valid JSON/);
  });

  it('refuses a file of more than 10,000 rows, naming the limit', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `over-${i}-${mine.siteId.slice(0, 8)}@example.com`);
    const res = await importCsv(mine, `email\n${rows.join('\n')}\n`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/more than 10,000 rows/);
    expect(await leadOf(mine, rows[0])).toBeUndefined();
  });

  describe('a large file', () => {
    let worker: BackgroundWork;
    beforeAll(async () => {
      worker = await startBackgroundWork();
    });
    afterAll(async () => {
      await worker?.stop();
    });

    it('is imported by a background job whose progress the import route tells', { timeout: 120_000 }, async () => {
      const tag = Math.random().toString(36).slice(2, 8);
      const lines = Array.from({ length: 1_200 }, (_, i) => `bulk-${tag}-${i}@example.com,Bulk ${i},${i % 2 ? 'pro' : 'free'}`);
      lines[99] = 'broken,Row,pro';
      const res = await importCsv(mine, `email,name,plan\n${lines.join('\n')}\n`);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.data).toMatchObject({ status: 'queued', total_rows: 1_200, skipped: 1, errors: [{ row: 101 }] });
      const id = res.body.data.import_id;
      const status = () =>
        call(importStatusRoute, {
          path: `/api/leads/import/${id}`,
          params: { import_id: id },
          query: { site_id: mine.siteId },
          headers: bearer(mine.key),
        });
      let done: Record<string, unknown> | undefined;
      const deadline = Date.now() + 110_000;
      while (!done && Date.now() < deadline) {
        const s = await status();
        expect(s.status).toBe(200);
        expect(s.body.data.processed_rows).toBeLessThanOrEqual(1_200);
        if (s.body.data.status === 'completed' || s.body.data.status === 'failed') done = s.body.data;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(done).toMatchObject({ status: 'completed', processed_rows: 1_200, created: 1_199, updated: 0, skipped: 1 });
      expect((await leadOf(mine, `bulk-${tag}-1199@example.com`)).customProperties).toEqual({ plan: 'Pro' });
      // Another site cannot read it.
      const foreign = await call(importStatusRoute, {
        path: `/api/leads/import/${id}`,
        params: { import_id: id },
        query: { site_id: other.siteId },
        headers: bearer(other.key),
      });
      expect(foreign.status).toBe(404);
    });
  });
});

describe('CSV export', () => {
  it('streams the filtered leads, quoted, formula-safe, with custom properties as columns, and imports back as it was', async () => {
    const tag = `exp${Math.random().toString(36).slice(2, 8)}`;
    const evil = `${tag}-evil@example.com`;
    const plain = `${tag}-plain@example.com`;
    for (const [email, name, extra] of [
      [
        evil,
        '=HYPERLINK("http://x")',
        {
          company: '+cmd|calc',
          notes: '@SUM(A1)',
          position: '-2+3',
          phone: '+44 20 7946 0000',
          custom_properties: { plan: 'Pro', deal_size: -5, source_note: '-minus' },
        },
      ],
      [plain, 'Plain "Quoted", Name', { company: 'Acme', custom_properties: { plan: 'Free' } }],
    ] as const) {
      const res = await call(createLeadRoute, {
        method: 'POST',
        path: '/api/agents/tools/leads/create',
        headers: bearer(mine.key),
        body: { site_id: mine.siteId, name, email, ...extra },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const res = await exportCsv(mine, { search: tag });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = res.body as string;
    // The byte-order mark first, so that spreadsheets read the file as UTF-8.
    expect(text.startsWith('\ufeffid,name,email')).toBe(true);
    expect(text).toContain('"\'=HYPERLINK(""http://x"")"');
    expect(text).toContain(",'+cmd|calc");
    expect(text).toContain(",'@SUM(A1)");
    expect(text).toContain(",'-2+3");
    expect(text).toContain(",'+44 20 7946 0000");
    expect(text).toContain('"Plain ""Quoted"", Name"');
    const parsed = parseCsv(text);
    expect(parsed.header.slice(-4)).toEqual(['plan', 'deal_size', 'renewal', 'source_note']);
    expect(parsed.records).toHaveLength(2);
    const row = parsed.records.find((r) => r.cells.includes(evil))!;
    // A number is written bare (a spreadsheet reads -5 as a number, never a formula).
    expect(row.cells.slice(-4)).toEqual(['Pro', '-5', '', "'-minus"]);

    // Filters as the list's: status and property.<key>.
    const pro = await exportCsv(mine, { search: tag, 'property.plan': 'pro' });
    expect(parseCsv(pro.body).records.map((r) => r.cells[2])).toEqual([evil]);
    const none = await exportCsv(mine, { search: tag, status: 'lost' });
    expect(parseCsv(none.body).records).toHaveLength(0);

    // The export imports back into another site unchanged (the formula marks removed).
    const back = await importCsv(other, text, {
      email: 'email',
      name: 'name',
      company: 'company',
      notes: 'notes',
      position: 'position',
      phone: 'phone',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await leadOf(other, evil)).toMatchObject({
      name: '=HYPERLINK("http://x")',
      company: '+cmd|calc',
      notes: '@SUM(A1)',
      position: '-2+3',
      phone: '+44 20 7946 0000',
    });
  });

  it('pages through more leads than one page, each exactly once', async () => {
    const tag = `page${Math.random().toString(36).slice(2, 8)}`;
    const rows = Array.from({ length: 1_000 }, (_, i) => `${tag}-${i}@example.com,Page ${i}`);
    expect((await importCsv(mine, `email,name\n${rows.join('\n')}\n`)).body.data.created).toBe(1_000);
    await importCsv(mine, `email,name\n${tag}-x@example.com,Extra\n`);
    const res = await exportCsv(mine, { search: tag });
    const emails = parseCsv(res.body).records.map((r) => r.cells[2]);
    expect(emails).toHaveLength(1_001);
    expect(new Set(emails).size).toBe(1_001);
  });

  it('refuses an unknown filter before writing anything', async () => {
    for (const query of [{ 'property.nope': 'x' }, { 'property.deal_size': 'ten' }, { color: 'red' }] as Record<string, string>[]) {
      const res = await exportCsv(mine, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    }
  });

  it("exports only the caller's site", async () => {
    const res = await exportCsv(other);
    expect(res.status).toBe(200);
    for (const r of parseCsv(res.body).records) expect(r.cells[2]).not.toMatch(/^bulk-|^page/);
    const cross = await exportCsv(mine, {}, bearer(other.key));
    expect(cross.status).toBe(403);
  });
});

describe('custom properties', () => {
  it('are defined per site; a duplicate key, a reserved key and a choice without options are refused', async () => {
    const listed = await call(listPropertiesRoute, { path: '/api/leads/properties', query: { site_id: mine.siteId }, headers: bearer(mine.readKey) });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { key: string }) => p.key)).toEqual(['plan', 'deal_size', 'renewal', 'source_note']);
    const foreign = await call(listPropertiesRoute, { path: '/api/leads/properties', query: { site_id: other.siteId }, headers: bearer(other.key) });
    expect(foreign.body.data).toEqual([]);
    for (const body of [
      { key: 'plan', label: 'Plan again', type: 'text' },
      { key: 'email', label: 'Email', type: 'text' },
      { key: 'Bad Key', label: 'x', type: 'text' },
      { key: 'tier', label: 'Tier', type: 'choice' },
      { key: 'size', label: 'Size', type: 'number', options: ['a'] },
    ]) {
      const res = await call(createPropertyRoute, {
        method: 'POST',
        path: '/api/leads/properties',
        headers: bearer(mine.key),
        body: { site_id: mine.siteId, ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(body.key === 'plan' ? 409 : 400);
    }
    const readOnly = await call(createPropertyRoute, {
      method: 'POST',
      path: '/api/leads/properties',
      headers: bearer(mine.readKey),
      body: { site_id: mine.siteId, key: 'x', label: 'X', type: 'text' },
    });
    expect(readOnly.status).toBe(403);
  });

  it('are validated on create and update: an unknown key or a wrong type is 400 naming the field', async () => {
    const email = uniqueEmail();
    const create = (custom_properties: Record<string, unknown>) =>
      call(createLeadRoute, {
        method: 'POST',
        path: '/api/agents/tools/leads/create',
        headers: bearer(mine.key),
        body: { site_id: mine.siteId, name: 'V', email: uniqueEmail(), custom_properties },
      });
    for (const [values, field] of [
      [{ nope: 'x' }, 'custom_properties.nope'],
      [{ plan: 'gold' }, 'custom_properties.plan'],
      [{ deal_size: '12' }, 'custom_properties.deal_size'],
      [{ renewal: '31/01/2026' }, 'custom_properties.renewal'],
      [{ source_note: 5 }, 'custom_properties.source_note'],
    ] as const) {
      const res = await create(values);
      expect(res.status, JSON.stringify(values)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.message).toContain(field);
    }
    // Another site's definitions do not count.
    const foreign = await call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: bearer(other.key),
      body: { site_id: other.siteId, name: 'V', email, custom_properties: { plan: 'Pro' } },
    });
    expect(foreign.status).toBe(400);

    const ok = await call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, name: 'V', email, custom_properties: { plan: 'enterprise', deal_size: 99, renewal: '2027-03-01' } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.lead.custom_properties).toEqual({ plan: 'Enterprise', deal_size: 99, renewal: '2027-03-01' });
    const updated = await call(updateLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/update',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, lead_id: ok.body.lead.id, custom_properties: { deal_size: null, source_note: 'met at the fair' } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.lead.custom_properties).toEqual({ plan: 'Enterprise', renewal: '2027-03-01', source_note: 'met at the fair' });
    const bad = await call(updateLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/update',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, lead_id: ok.body.lead.id, custom_properties: { plan: 3 } },
    });
    expect(bad.status).toBe(400);
    expect((await leadOf(mine, email)).customProperties).toEqual({ plan: 'Enterprise', renewal: '2027-03-01', source_note: 'met at the fair' });

    // The leads list filters on them.
    const listed = await call(getLeadsRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/get',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, properties: { plan: 'ENTERPRISE', renewal: '2027-03-01' } },
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.leads.map((l: { email: string }) => l.email)).toEqual([email]);
    const unknown = await call(getLeadsRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/get',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, properties: { nope: 'x' } },
    });
    expect(unknown.status).toBe(400);
  });

  it('keep an option leads hold; deleting a property clears it from every lead', async () => {
    const prop = await defineProperty(mine, { key: 'tier', label: 'Tier', type: 'choice', options: ['Gold', 'Silver'] });
    const email = uniqueEmail();
    await call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: bearer(mine.key),
      body: { site_id: mine.siteId, name: 'T', email, custom_properties: { tier: 'Gold' } },
    });
    const patch = (body: Record<string, unknown>, t = mine) =>
      call(patchPropertyRoute, {
        method: 'PATCH',
        path: `/api/leads/properties/${prop.property_id}`,
        params: { property_id: prop.property_id },
        headers: bearer(t.key),
        body: { site_id: t.siteId, ...body },
      });
    const deleteProperty = (t: Tenant) =>
      call(deletePropertyRoute, {
        method: 'DELETE',
        path: `/api/leads/properties/${prop.property_id}`,
        params: { property_id: prop.property_id },
        query: { site_id: t.siteId },
        headers: bearer(t.key),
      });
    expect((await patch({ options: ['Silver'] })).status).toBe(409);
    const renamed = await patch({ label: 'Level', options: ['Gold', 'Silver', 'Bronze'] });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ label: 'Level', options: ['Gold', 'Silver', 'Bronze'], type: 'choice', key: 'tier' });
    expect((await patch({ label: 'Stolen' }, other)).status).toBe(404);
    const delOther = await deleteProperty(other);
    expect(delOther.status).toBe(404);
    const del = await deleteProperty(mine);
    expect(del.status).toBe(200);
    expect(del.body.data.cleared_leads).toBe(1);
    expect((await leadOf(mine, email)).customProperties).toEqual({});
  });
});

describe('members', () => {
  it('a viewer reads and exports but cannot import or define properties; a member imports', async () => {
    const viewer = await joinedMember(mine.user, mine.siteId, 'viewer');
    const member = await joinedMember(mine.user, mine.siteId, 'member');
    const e = uniqueEmail();
    const refused = await importCsv(mine, `email\n${e}\n`, undefined, viewer.auth);
    expect(refused.status).toBe(403);
    expect(await leadOf(mine, e)).toBeUndefined();
    expect((await exportCsv(mine, {}, viewer.auth)).status).toBe(200);
    const define = await call(createPropertyRoute, {
      method: 'POST',
      path: '/api/leads/properties',
      headers: member.auth,
      body: { site_id: mine.siteId, key: 'm', label: 'M', type: 'text' },
    });
    expect(define.status).toBe(403);
    const imported = await importCsv(mine, `email\n${e}\n`, undefined, member.auth);
    expect(imported.status).toBe(200);
    expect((await leadOf(mine, e)).name).toBe(e.split('@')[0]);
    // A member of one site cannot import into another.
    const cross = await importCsv(other, `email\n${uniqueEmail()}\n`, undefined, member.auth);
    expect(cross.status).toBe(403);
    // A read-only key cannot import either.
    expect((await importCsv(mine, `email\n${uniqueEmail()}\n`, undefined, bearer(mine.readKey))).status).toBe(403);
  });
});
