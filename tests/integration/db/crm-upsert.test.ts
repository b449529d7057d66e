import { describe, expect, it } from 'vitest';
import { upsertLeadByEmail } from '@/lib/leads/repo';
import { createSite, createUser } from '@/tests/helpers/harness';

describe('upsertLeadByEmail', () => {
  it('keeps one lead per email per site, case-insensitively, and separate leads across sites', async () => {
    const user = await createUser();
    const [a, b] = [await createSite(user), await createSite(user)];
    const first = await upsertLeadByEmail(a, { email: 'Ann@Example.com', name: 'Ann' });
    const again = await upsertLeadByEmail(a, { email: 'ann@example.com', name: 'Ann B.' });
    const elsewhere = await upsertLeadByEmail(b, { email: 'ann@example.com', name: 'Ann' });
    expect(again.id).toBe(first.id);
    expect(again.name).toBe('Ann B.');
    expect(elsewhere.id).not.toBe(first.id);
  });
});
