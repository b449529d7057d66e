import { describe, expect, it } from 'vitest';
import { addDays, canonicalTimeZone, dateIn, daysBetween, daysOf, startOfDay } from '@/lib/analytics/calendar';
import { landingAttribution } from '@/lib/visitors/attribution';

const iso = (ms: number) => new Date(ms).toISOString();

describe('analytics calendar', () => {
  it('starts days at local midnight, whatever the offset', () => {
    expect(iso(startOfDay('2026-11-21', 'UTC'))).toBe('2026-11-21T00:00:00.000Z');
    expect(iso(startOfDay('2026-11-21', 'America/New_York'))).toBe('2026-11-21T05:00:00.000Z');
    expect(iso(startOfDay('2026-01-01', 'Asia/Kolkata'))).toBe('2025-12-31T18:30:00.000Z');
    expect(iso(startOfDay('2026-01-01', 'Asia/Kathmandu'))).toBe('2025-12-31T18:15:00.000Z');
    expect(iso(startOfDay('2026-06-01', 'Pacific/Chatham'))).toBe('2026-05-31T11:15:00.000Z');
  });

  it('makes daylight-saving days 23 and 25 hours long', () => {
    const spring = daysOf('2026-03-28', '2026-03-30', 'Europe/Madrid');
    expect(spring.starts.map(iso)).toEqual([
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ]);
    const autumn = daysOf('2026-10-25', '2026-10-25', 'Europe/Madrid');
    expect(autumn.starts[1] - autumn.starts[0]).toBe(25 * 3_600_000);
  });

  it('starts a day whose midnight the clocks skip at its first instant', () => {
    // Cuba moves its clocks from 00:00 to 01:00 on the second Sunday of March.
    const start = startOfDay('2026-03-08', 'America/Havana');
    expect(dateIn(start, 'America/Havana')).toBe('2026-03-08');
    expect(dateIn(start - 1, 'America/Havana')).toBe('2026-03-07');
  });

  it('checks time zones, and counts days', () => {
    expect(canonicalTimeZone('europe/madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysBetween('2026-01-02', '2026-01-01')).toBe(0);
    expect(dateIn(Date.parse('2026-11-21T03:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-20');
  });
});

describe('landing attribution', () => {
  it('reads utm_* and ref from the landing URL when the body has none; given values win; empty ones count as missing', () => {
    expect(
      landingAttribution(
        {},
        'https://shop.example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale&utm_term=x&utm_content=y&ref=ph#top',
      ),
    ).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring sale',
      utm_term: 'x',
      utm_content: 'y',
      referrer: 'ph',
    });
    expect(landingAttribution({ utm_source: 'partner', referrer: 'https://news.ycombinator.com/' }, '/?utm_source=a&utm_medium=b&ref=c')).toEqual({
      utm_source: 'partner',
      utm_medium: 'b',
      referrer: 'https://news.ycombinator.com/',
    });
    expect(landingAttribution({ utm_source: '' }, '/?utm_source=%20&utm_medium=%E0%A4%A')).toEqual({ utm_medium: '\ufffd%A' });
    expect(landingAttribution({}, undefined)).toEqual({});
    expect(landingAttribution({}, `/?utm_source=${'s'.repeat(600)}`).utm_source).toHaveLength(500);
  });
});
