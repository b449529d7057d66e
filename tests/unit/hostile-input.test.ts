import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { errorFields } from '@/lib/core/log';
import { MAX_INPUT_DEPTH, findInputIssue, textProblem } from '@/lib/core/text';
import { routePattern } from '@/lib/http/route-pattern';

describe('text rule', () => {
  it.each([
    ['plain', 'Hello, wörld — 你好 👋'],
    ['tab, LF, CR', 'a\tb\nc\r\nd'],
    ['DEL and C1 controls', 'a\u007fb\u0085c\u0092'],
    ['a surrogate pair', '\ud83d\ude00'],
  ])('accepts %s', (_name, value) => {
    expect(textProblem(value)).toBeUndefined();
  });

  it.each([
    ['NUL', 'abc\u0000\u0000', /NUL.*U\+0000 at character 4/],
    ['a lone high surrogate', 'a\ud800b', /lone surrogate U\+D800/],
    ['a lone low surrogate', '\udc00', /lone surrogate U\+DC00/],
    ['a reversed pair', '\ude00\ud83d', /lone surrogate/],
    ['ESC', 'x\u001b[31m', /control characters.*U\+001B/],
    ['form feed', '\f', /control characters/],
    ['a noncharacter', '\uffff', /noncharacter U\+FFFF/],
  ])('refuses %s', (_name, value, message) => {
    expect(textProblem(value)).toMatch(message);
  });

  it('reports the first refused string of a JSON value by path, keys included', () => {
    expect(findInputIssue({ a: 'ok', b: [1, { c: 'x\u0000' }], d: '\u0000' })).toEqual({
      path: ['b', 1, 'c'],
      message: expect.stringContaining('NUL'),
    });
    expect(findInputIssue({ meta: { 'bad\u0001key': 1 } })).toEqual({
      path: ['meta', 'bad\u0001key'],
      message: expect.stringMatching(/^Field name: /),
    });
    expect(findInputIssue({ a: 1, b: true, c: null, d: ['x'] })).toBeUndefined();
    expect(findInputIssue('\u0000')).toEqual({ path: [], message: expect.any(String) });
  });

  it("checks a file's name, not its bytes", () => {
    expect(findInputIssue({ file: new File(['\u0000'], 'ok.txt') })).toBeUndefined();
    expect(findInputIssue({ file: new File(['x'], 'a\u0000.txt') })).toMatchObject({ path: ['file', 'name'] });
  });

  it(`refuses nesting deeper than ${MAX_INPUT_DEPTH} levels without overflowing the stack`, () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findInputIssue(deep)?.message).toMatch(/nested deeper/);
    let ok: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) ok = { k: ok };
    expect(findInputIssue(ok)).toBeUndefined();
  });
});

describe('error log fields', () => {
  const SECRET = 'sk_live_HOSTILE_0123456789';

  it('keeps SQL state, constraint and table of a wrapped database error, not the query parameters or messages', () => {
    const pgError = Object.assign(new Error(`duplicate key value violates unique constraint "leads_site_email" (${SECRET})`), {
      code: '23505',
      constraint: 'leads_site_email',
      table: 'leads',
      detail: `Key (email)=(${SECRET}) already exists.`,
      routine: '_bt_check_unique',
    });
    const wrapped = new DrizzleQueryError('insert into "leads" ("email") values ($1)', [SECRET], pgError);
    const fields = errorFields(wrapped);
    expect(JSON.stringify(fields)).not.toContain(SECRET);
    expect(JSON.stringify(fields)).not.toContain('Failed query');
    expect(fields).toMatchObject({
      error: { name: 'DrizzleQueryError' },
      causes: [{ name: 'Error', code: '23505', constraint: 'leads_site_email', table: 'leads', routine: '_bt_check_unique' }],
    });
    expect((fields.stack as string[]).length).toBeGreaterThan(0);
    expect((fields.stack as string[]).every((f) => f.startsWith('at '))).toBe(true);
  });

  it('never logs a message, even of runtime errors that quote their input', () => {
    let parseError: unknown;
    try {
      JSON.parse(`{"token": "${SECRET}"`);
    } catch (error) {
      parseError = error;
    }
    expect(JSON.stringify(errorFields(parseError))).not.toContain(SECRET);
    expect(errorFields('a string thrown')).toEqual({ error: { type: 'string' } });
  });
});

describe('route pattern', () => {
  it('replaces path params with their names', () => {
    const site = '5f0c6c1e-8d1c-4f5e-9a4b-2a1c3d4e5f60';
    expect(routePattern(`/sites/${site}/commands/abc%20def`, { site_id: site, command_id: 'abc def' })).toBe(
      '/sites/{site_id}/commands/{command_id}',
    );
    expect(routePattern('/api/health', {})).toBe('/api/health');
  });
});

describe('console forms', () => {
  it('refuse what the API refuses, next to the field, before the schema', async () => {
    const { fieldErrors, safeParseForm } = await import('@/app/(console)/_lib/forms');
    const { createSiteBodySchema } = await import('@/lib/sites/schema');
    const refused = safeParseForm(createSiteBodySchema, { name: 'Shop\u0000' });
    expect(refused.success).toBe(false);
    expect(fieldErrors(refused.error!)).toEqual({ name: expect.stringContaining('NUL') });
    expect(safeParseForm(createSiteBodySchema, { name: 'Shop\tone' }).success).toBe(true);
  });
});
