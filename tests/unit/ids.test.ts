import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '@/lib/core/ids';
import { uuidSchema } from '@/lib/core/schemas';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID of the RFC variant that the API accepts as an id', () => {
    const id = timeOrderedUuid();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidSchema.safeParse(id).success).toBe(true);
  });

  it('carries its time in milliseconds in the first 48 bits', () => {
    const at = Date.UTC(2026, 10, 25, 3, 40, 12, 345);
    expect(parseInt(timeOrderedUuid(at).replace('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts later times after earlier ones, as text and as Postgres compares uuids', () => {
    const ids = [1, 2, 1000, 2 ** 40].map((ms) => timeOrderedUuid(Date.UTC(2026, 0, 1) + ms));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs between ids of the same millisecond', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(at)));
    expect(ids.size).toBe(10_000);
  });
});
