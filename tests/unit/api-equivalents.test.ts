import { describe, expect, it } from 'vitest';
import { API_EQUIVALENTS } from '@/app/(console)/_lib/api-equivalents';
import { SITE_SECTIONS } from '@/components/site-sections';
import table from '@/lib/http/route-table.json';

describe('the API for each console page (Developers area)', () => {
  it('names only sections of the menu and routes that exist', () => {
    const routes = new Set(table.routes.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`)));
    for (const { section, calls } of API_EQUIVALENTS) {
      expect(
        SITE_SECTIONS.map((s) => s.path),
        section,
      ).toContain(section);
      for (const { call } of calls) expect(routes.has(call), call).toBe(true);
    }
  });

  it('covers every section of the shop and the Developers area but its own page', () => {
    const covered = new Set(API_EQUIVALENTS.map((e) => e.section));
    expect(SITE_SECTIONS.filter((s) => !covered.has(s.path)).map((s) => s.path)).toEqual(['/developers']);
  });
});
