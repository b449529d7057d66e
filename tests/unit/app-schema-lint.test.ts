import { describe, expect, it } from 'vitest';
import { lintMigration } from '@/lib/app-schema/lint';

const S = 'app_abc123';
const rules = async (sql: string) => (await lintMigration(S, sql)).issues.map((i) => `${i.rule}@${i.line}`);

describe('app migration lint', () => {
  it('passes a table with row level security and a policy, unqualified or qualified with the app schema', async () => {
    expect(await rules('create table t (id int);\nalter table t enable row level security;\ncreate policy p on t using (true);')).toEqual([]);
    expect(
      await rules(`create table ${S}.t (id int); alter table ${S}.t enable row level security; create policy p on ${S}.t using (true);`),
    ).toEqual([]);
  });

  it('reports the line of the offending statement, after multi-byte text and comments', async () => {
    expect(await rules("comment on table t is 'héllo ✓';\n-- note\n\nset role postgres;")).toEqual(['role@4']);
    expect(await rules('/* a\n b */ create table public.t (id int);')).toContain('other-schema@2');
  });

  it('reads dollar quotes and comments as the server does', async () => {
    // The semicolon and the statement inside the quotes are data, not a second statement.
    const { statements } = await lintMigration(S, 'create table t (a text default $x$; drop table public.sites; $x$);');
    expect(statements).toHaveLength(1);
    expect(await rules('/* /* nested */ still a comment; drop table public.sites; */ select 1')).toEqual(['statement-not-allowed@1']);
  });

  it('refuses a syntax error with its line', async () => {
    expect(await rules('create index i on t (a);\ncreate tabel t (a int);')).toEqual(['syntax@2']);
  });
});
