import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '@/lib/core/ids';
import { visitorLabel, visitorTag } from '@/lib/visitors/label';

describe('visitorLabel', () => {
  it('tells apart visitors whose ids start in the same millisecond, and names the same visitor the same way', () => {
    const at = Date.parse('2026-11-02T08:00:00Z');
    const ids = Array.from({ length: 50 }, () => timeOrderedUuid(at));
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    expect(new Set(ids.map(visitorTag)).size).toBe(50);
    for (const id of ids) expect(visitorLabel({ visitor_id: id })).toBe(visitorLabel({ visitor_id: id.toUpperCase() }));
  });

  it('reads "Visitor <tag> · place · browser", a city before a country, a country by its name (a bot too: its badge says bot)', () => {
    const id = '01a23306-0000-7000-8000-00000000beef';
    expect(visitorLabel({ visitor_id: id })).toBe('Visitor 00beef');
    expect(visitorLabel({ visitor_id: id, location: { country: 'de' }, browser: { name: 'Chrome' } })).toBe('Visitor 00beef · Germany · Chrome');
    expect(visitorLabel({ visitor_id: id, location: { country: 'DE', city: 'Berlin' }, browser: {} })).toBe('Visitor 00beef · Berlin');
    expect(visitorLabel({ visitor_id: id, location: null, browser: { name: 'Chrome' } })).toBe('Visitor 00beef · Chrome');
    expect(visitorLabel({ visitor_id: id, location: { country: 'not a code' } })).toBe('Visitor 00beef · not a code');
  });
});
