import { siteGrowthClient } from './index';

/**
 * The README's curl walk-through in TypeScript, through the typed client: every path, body and
 * answer below is checked by the compiler against the API description.
 *
 *   npx tsx client/walkthrough.ts http://localhost:3000
 */
export async function walkthrough(base: string, email = 'ada@example.com') {
  const pub = siteGrowthClient(base);
  const must = <T>(r: { data?: T; error?: unknown; response: Response }): T => {
    if (r.data === undefined) throw new Error(`${r.response.url}: ${r.response.status} ${JSON.stringify(r.error)}`);
    return r.data;
  };

  // 1. Sign up, then exchange the password for a session token
  const password = 'correct horse battery';
  must(await pub.POST('/api/auth/signup', { body: { email, password, name: 'Ada' } }));
  const { token } = must(await pub.POST('/api/auth/token', { body: { email, password } })).data;
  const owner = siteGrowthClient(base, { headers: { authorization: `Bearer ${token}` } });

  // 2. Create a site; 3. an API key for it (the full key is shown only in this answer)
  const site = must(await owner.POST('/api/visitors/sites', { body: { name: 'My shop', domain: 'shop.example.com' } })).data;
  const key = must(await owner.POST('/api/keys', { body: { name: 'cli', scopes: ['read', 'write'], site_id: site.id } })).data.apiKey;

  // 4. Call the API with the key
  const api = siteGrowthClient(base, { headers: { 'X-API-Key': key, 'X-SA-API-KEY': key, authorization: `Bearer ${key}` } });
  const sites = must(await api.GET('/sites')).data;

  // 5.–8. A visitor session: start it, track a page view, read it back, end it
  const session = must(
    await api.POST('/api/visitors/session', {
      body: { site_id: site.id, fingerprint: 'fp-ada-laptop', url: 'https://shop.example.com/?utm_source=newsletter' },
    }),
  ).data;
  must(
    await api.POST('/api/visitors/track', {
      body: { site_id: site.id, session_id: session.session_id, event_type: 'pageview', url: 'https://shop.example.com/pricing' },
    }),
  );
  const read = must(await api.GET('/api/visitors/session', { params: { query: { session_id: session.session_id, site_id: site.id } } })).data;
  must(
    await api.POST('/api/visitors/session/{session_id}/end', { params: { path: { session_id: session.session_id } }, body: { exit_type: 'exit' } }),
  );

  // 9. A tool route: create a lead, then find it
  const lead = must(
    await api.POST('/api/agents/tools/leads/create', {
      body: { site_id: site.id, name: 'Grace Hopper', email: 'grace@example.com', company: 'Navy' },
    }),
  ).lead;
  const found = must(await api.POST('/api/agents/tools/leads/get', { body: { site_id: site.id, search: 'grace' } })).leads;

  return { siteId: site.id, sites, session: read, lead, found };
}

if (process.argv[1]?.endsWith('walkthrough.ts')) {
  walkthrough(process.argv[2] ?? 'http://localhost:3000').then((r) => console.log(JSON.stringify(r, null, 2)));
}
