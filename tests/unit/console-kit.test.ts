import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageHref, peekedPage, PAGE_SIZE } from '@/app/(console)/_lib/list-query';
import { Chart } from '@/components/kit/chart';
import { DataTable } from '@/components/kit/data-table';
import { FilterInput, FilterLinks, FilterSelect } from '@/components/kit/page-filters';
import { SectionTable } from '@/components/kit/section-table';
import { bodyFromForm, schemaFields } from '@/components/schema-form/fields';
import { buildSegmentsBody, humanInterventionBody, leadResearchBody } from '@/lib/workflows/bodies';
import { postedForm } from '@/tests/helpers/form-data';

describe('Chart', () => {
  it('renders plain SVG on the server, for wide screens and for phones: paths, round ticks, a tooltip per day', () => {
    const html = renderToStaticMarkup(
      createElement(Chart, { title: 'Visitors per day', labels: ['Nov 22', 'Nov 23', 'Nov 24'], series: [{ name: 'Visitors', values: [0, 7, 3] }] }),
    );
    expect(html).not.toContain('<script');
    const [wide, narrow] = html.split('<div class="chart-plot narrow">');
    expect(wide).toContain('<svg viewBox="0 0 720 240" role="img" aria-label="Visitors per day" data-chart="wide">');
    expect(narrow).toContain('<svg viewBox="0 0 360 220" role="img" aria-label="Visitors per day" data-chart="narrow">');
    expect(html.match(/<path class="line" d="M[\d.,LMC ]+"/g)).toHaveLength(2);
    // The y axis is rounded to a nice maximum above the largest value, on both drawings.
    expect([...wide.matchAll(/text-anchor="end">(\d+)</g)].map((m) => m[1])).toEqual(['0', '2', '4', '6', '8']);
    expect([...narrow.matchAll(/text-anchor="end">(\d+)</g)].map((m) => m[1])).toEqual(['0', '2', '4', '6', '8']);
    // Its own tooltips, not the browser's: one per day, with the day and every series' value.
    expect(html).not.toContain('<title>');
    expect(wide).toMatch(/<div class="chart-tip[^"]*" aria-hidden="true"><strong>Nov 23<\/strong> 7 visitors<\/div>/);
    // The figures are also a table for screen readers.
    expect(html).toContain('<th scope="row">Nov 24</th><td>3</td>');
  });

  it('names at most 7 days on wide screens and 4 on phones, always today', () => {
    const labels = Array.from({ length: 30 }, (_, i) => `Day ${i + 1}`);
    const html = renderToStaticMarkup(
      createElement(Chart, { title: 'Month', labels, series: [{ name: 'Visitors', values: labels.map((_, i) => i) }] }),
    );
    const [wide, narrow] = html.split('<div class="chart-plot narrow">');
    const named = (part: string) => [...part.matchAll(/class="tick x-label"[^>]*>([^<]+)</g)].map((m) => m[1]);
    expect(named(wide).length).toBeLessThanOrEqual(7);
    expect(named(narrow).length).toBeLessThanOrEqual(4);
    expect(named(wide).at(-1)).toBe('Day 30');
    expect(named(narrow).at(-1)).toBe('Day 30');
  });

  it('draws a flat line at zero for a period without visits', () => {
    const html = renderToStaticMarkup(createElement(Chart, { title: 'Empty', labels: ['a', 'b'], series: [{ name: 'Visitors', values: [0, 0] }] }));
    expect(html).toContain('<path class="line"');
    expect(html).not.toContain('NaN');
  });
});

describe('DataTable', () => {
  it('labels every cell but the title with its column, for the phone layout; shows `empty` without rows', () => {
    const columns = [
      { header: 'Name', title: true, cell: (r: { id: string }) => r.id },
      { header: 'Status', cell: () => 'ok' },
    ];
    const html = renderToStaticMarkup(
      createElement(DataTable<{ id: string }>, { caption: 'Rows', rows: [{ id: 'a' }], rowKey: (r) => r.id, columns, empty: 'none' }),
    );
    expect(html).toContain('<tr data-row-id="a"><td>a</td><td data-label="Status">ok</td></tr>');
    expect(
      renderToStaticMarkup(createElement(DataTable<{ id: string }>, { caption: 'Rows', rows: [], rowKey: (r) => r.id, columns, empty: 'none' })),
    ).toBe('none');
  });
});

describe('forms generated from a body schema', () => {
  it('has one field per property but site_id, of the kind that types it, with the schema defaults', () => {
    expect(schemaFields(buildSegmentsBody)).toEqual([
      expect.objectContaining({
        name: 'attributes',
        kind: 'checks',
        options: ['company', 'origin', 'position', 'email_domain', 'status'],
        defaultValue: ['origin'],
        required: false,
      }),
      expect.objectContaining({ name: 'min_size', label: 'Min size', kind: 'number', defaultValue: '2', required: false }),
    ]);
    expect(schemaFields(leadResearchBody)).toEqual([
      expect.objectContaining({ name: 'lead_ids', label: 'Lead IDs', kind: 'lines', required: false }),
    ]);
    expect(schemaFields(humanInterventionBody).map((f) => [f.name, f.kind, f.required])).toEqual([
      ['question', 'text', true],
      ['context', 'json', false],
      ['timeout_seconds', 'number', false],
    ]);
  });

  it('turns the submitted form back into a body the schema accepts, or refuses next to the field', () => {
    const fields = schemaFields(humanInterventionBody);
    const body = bodyFromForm(
      fields,
      postedForm([
        ['question', ' Ship it? '],
        ['context', '{"pr": 12}'],
        ['timeout_seconds', '60'],
      ]),
    );
    expect(body).toEqual({ question: 'Ship it?', context: { pr: 12 }, timeout_seconds: 60 });
    const site_id = '2f1c6a4e-8d0b-4c3e-9a51-7b2d4e6f8a90';
    expect(humanInterventionBody.parse({ ...body, site_id })).toEqual({ ...body, site_id });

    const bad = humanInterventionBody.safeParse({
      ...bodyFromForm(
        fields,
        postedForm([
          ['question', 'x'],
          ['context', '{not json'],
          ['timeout_seconds', 'soon'],
        ]),
      ),
      site_id,
    });
    expect(bad.success).toBe(false);
    expect(new Set(bad.error!.issues.map((i) => i.path[0]))).toEqual(new Set(['context', 'timeout_seconds']));

    const lists = schemaFields(z.strictObject({ ids: z.array(z.string()).optional(), on: z.boolean().default(false) }));
    expect(bodyFromForm(lists, postedForm([['ids', 'a\n\n b \n']]))).toEqual({ ids: ['a', 'b'], on: false });
  });
});

describe('SectionTable', () => {
  const columns = [{ header: 'Name', title: true, cell: (r: { id: string; name: string }) => r.name }];
  const section = (props: Partial<Parameters<typeof SectionTable<{ id: string; name: string }>>[0]>) =>
    renderToStaticMarkup(
      createElement(SectionTable<{ id: string; name: string }>, {
        title: 'Goals',
        id: 'goals',
        caption: 'Goals of the site',
        rows: [{ id: 'g1', name: 'Sign-up' }],
        empty: 'No goals yet.',
        columns,
        ...props,
      }),
    );

  it('is a card labelled by its heading: the intro, the table keyed by id, the row buttons or a dash, then what follows', () => {
    const html = section({ intro: 'What a goal is.', rowActions: (r) => r.id === 'g1' && 'Delete', children: 'pager' });
    expect(html).toMatch(
      /^<section class="card" aria-labelledby="goals-heading"><div class="card-head"><h2 id="goals-heading"[^>]*>Goals<\/h2><\/div><p>What a goal is.<\/p>/,
    );
    expect(html).toContain('<tr data-row-id="g1"><td>Sign-up</td><td data-label="Actions">Delete</td></tr>');
    expect(html).toMatch(/<\/table><\/div>pager<\/section>$/);
    expect(section({ rowActions: () => false })).toContain('<td data-label="Actions"><span class="empty">—</span></td>');
  });

  it('shows a text `empty` as the empty state, and the card that adds one only when given', () => {
    const html = section({ rows: [], add: { title: 'Add a goal', id: 'add-goal', form: 'form' } });
    expect(html).toContain('<div class="empty-state"><p class="empty-title">No goals yet.</p></div>');
    expect(html).toMatch(/<section class="card" aria-labelledby="add-goal-heading">.*Add a goal.*form<\/section>$/);
    expect(section({ add: false })).not.toContain('add-goal');
  });
});

describe('paged lists', () => {
  it('links a page at its offset, keeping the query, the first page without one, the heading as anchor', () => {
    const href = pageHref('/console/sites/s/secrets', { query: { offset: '25', activity: '50' }, param: 'activity', anchor: 'secret-audit' });
    expect(href(0)).toBe('/console/sites/s/secrets?offset=25#secret-audit-heading');
    expect(href(25)).toBe('/console/sites/s/secrets?offset=25&activity=25#secret-audit-heading');
    expect(pageHref('/x')(50)).toBe('/x?offset=50');
  });

  it('reads one row past the page to tell whether an older page exists', () => {
    const read = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => i);
    expect(peekedPage(read, 25)).toEqual({
      rows: read.slice(0, PAGE_SIZE),
      pager: { offset: 25, limit: PAGE_SIZE, total: 26 + PAGE_SIZE, capped: true },
    });
    expect(peekedPage([1, 2], 0).pager).toEqual({ offset: 0, limit: PAGE_SIZE, total: 2, capped: false });
  });
});

describe('list filters', () => {
  it('links each value and the whole list, marking the one shown', () => {
    const html = renderToStaticMarkup(
      createElement(FilterLinks<'sales' | 'cmo'>, {
        label: 'Agent',
        all: 'All agents',
        values: ['sales', 'cmo'],
        current: 'cmo',
        name: (a) => a.toUpperCase(),
        href: (a) => (a ? `/c?agent=${a}` : '/c'),
      }),
    );
    expect(html).toBe(
      '<nav class="range" aria-label="Agent"><a href="/c">All agents</a><a href="/c?agent=sales">SALES</a><a aria-current="true" href="/c?agent=cmo">CMO</a></nav>',
    );
  });

  it('offers "any" first in a choice and keeps what was asked in a choice and a typed value', () => {
    const select = renderToStaticMarkup(
      createElement(FilterSelect, {
        label: 'Identified',
        name: 'identified',
        value: 'no',
        any: 'Anyone',
        options: ['x', { value: 'no', label: 'Anonymous only' }],
      }),
    );
    expect(select).toBe(
      '<label>Identified<select name="identified"><option value="">Anyone</option><option>x</option><option value="no" selected="">Anonymous only</option></select></label>',
    );
    expect(renderToStaticMarkup(createElement(FilterInput, { label: 'From', name: 'from', type: 'date', value: '2026-01-02' }))).toBe(
      '<label>From<input type="date" name="from" value="2026-01-02"/></label>',
    );
  });
});
