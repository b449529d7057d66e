import { describe, expect, it } from 'vitest';
import { GET as listOrigins } from '@/app/api/sites/[site_id]/origins/route';
import { isOriginAllowed } from '@/lib/sites/origins';
import { createSite, listSitesOfMember } from '@/lib/sites/repo';
import { call, createUser } from '@/tests/helpers/harness';

// The console's create-site form: a site and its extra allowed origins are written together.
describe('createSite with extra allowed origins', () => {
  it('stores the origins once each, listed by the API and accepted for browser calls', async () => {
    const user = await createUser();
    const site = await createSite(user.id, { name: 'Shop', domain: 'shop.example.com' }, [
      'https://app.example.com',
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    const res = await call(listOrigins, { method: 'GET', path: `/api/sites/${site.id}/origins`, params: { site_id: site.id }, headers: user.auth });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { origin: string }) => o.origin).sort()).toEqual(['http://localhost:5173', 'https://app.example.com']);
    expect(await isOriginAllowed(site.id, 'https://app.example.com')).toBe(true);
    expect(await isOriginAllowed(site.id, 'https://other.example.com')).toBe(false);
  });

  it('writes no site when one of its origins cannot be stored', async () => {
    const user = await createUser();
    // Callers pass normalized origins; one the table's check refuses makes the whole creation fail.
    await expect(createSite(user.id, { name: 'Broken' }, ['https://ok.example.com', 'https://Not_Normalized.example.com'])).rejects.toThrow();
    expect(await listSitesOfMember(user.id)).toEqual([]);
  });
});
