import http from 'node:http';
import { resetConfig } from '@/lib/core/config';
import { listenInTestRange } from './serve';

/**
 * A local stand-in for the people-data provider, speaking the Forager-compatible HTTP contract of
 * lib/providers/people-data (Bearer / X-API-KEY key, trailing-slash paths, `search_results` +
 * `total_search_results`), over a fixed, generated population:
 * - person `p<n>` (n = 1…population) works as `TITLES[n % 4]` at organization `o<n % 10>`;
 *   search filters by `role_title` (case-insensitive substring) — `role_title: "explode"` answers 500;
 * - pages of PAGE_SIZE people;
 * - every fifth person (n % 5 === 0) has no work email; the others `<first>.<last><n>@org<n % 10>.example`.
 * `failNext` queues answers (status, headers) for the next provider calls, whatever they are.
 */
export const CATALOGUE = [
  { id: 'ind_4', name: 'Computer Software', category: 'industry' },
  { id: 'ind_96', name: 'Information Technology and Services', category: 'industry' },
  { id: 'loc_2514256', name: 'Madrid, Spain', category: 'location' },
  { id: 'title_812', name: 'Software Engineer', category: 'job_title' },
  { id: 'sen_5', name: 'Director', category: 'seniority' },
];

export const PAGE_SIZE = 10;
export const TITLES = ['Head of Sales', 'Software Engineer', 'Marketing Director', 'Sales Manager'];
const FIRST = ['Ana', 'Luis', 'Marta', 'Jorge', 'Eva', 'Pablo', 'Sara', 'Diego'];
const LAST = ['Garcia', 'Lopez', 'Martin', 'Sanz', 'Ruiz', 'Diaz', 'Moreno', 'Alonso'];

export interface StandInPerson {
  n: number;
  id: string;
  first: string;
  last: string;
  title: string;
  org: number;
  workEmail: string | null;
}

export function standInPerson(n: number): StandInPerson {
  const first = FIRST[n % FIRST.length];
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length];
  const org = n % 10;
  return {
    n,
    id: `p${n}`,
    first,
    last,
    title: TITLES[n % TITLES.length],
    org,
    workEmail: n % 5 === 0 ? null : `${first}.${last}${n}@org${org}.example`.toLowerCase(),
  };
}

export interface StandInCall {
  method: string;
  path: string;
  body: unknown;
}

export interface PeopleDataStandIn {
  url: string;
  /** Every request's path and query, in order. */
  requests: string[];
  /** Every request with its method and JSON body. */
  calls: StandInCall[];
  /** The next provider calls answer these instead (e.g. `{status: 429, headers: {'retry-after': '7'}}`). */
  failNext(...answers: { status: number; headers?: Record<string, string>; body?: string }[]): void;
  /** People matching a role title (the stand-in's filter), in page order. */
  matching(roleTitle?: string): StandInPerson[];
  close(): Promise<void>;
}

function roleOf(p: StandInPerson) {
  return {
    id: `r${p.n}`,
    role_title: p.title,
    start_date: '2021-01-01',
    person: {
      id: p.id,
      full_name: `${p.first} ${p.last}`,
      first_name: p.first,
      last_name: p.last,
      headline: `${p.title} at Org ${p.org}`,
      location: { name: 'Madrid, Spain' },
      linkedin_info: { public_profile_url: `https://www.linkedin.com/in/${p.id}` },
    },
    organization: { id: `o${p.org}`, name: `Org ${p.org}`, domain: `org${p.org}.example`, website: `https://org${p.org}.example` },
  };
}

export async function startPeopleDataStandIn(apiKey: string, o: { population?: number; delayMs?: number } = {}): Promise<PeopleDataStandIn> {
  const population = o.population ?? 200;
  const people = Array.from({ length: population }, (_, i) => standInPerson(i + 1));
  const requests: string[] = [];
  const calls: StandInCall[] = [];
  const queued: { status: number; headers?: Record<string, string>; body?: string }[] = [];
  const matching = (roleTitle?: string) => (roleTitle ? people.filter((p) => p.title.toLowerCase().includes(roleTitle.toLowerCase())) : people);
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { detail: 'bad json' });
    }
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    calls.push({ method: req.method ?? 'GET', path: url.pathname, body });
    if (req.headers.authorization !== `Bearer ${apiKey}` || req.headers['x-api-key'] !== apiKey) {
      return json(res, 401, { detail: 'Invalid API key for account 1234 (internal trace id abc)' });
    }
    if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
    const failure = url.pathname === '/categories/search' ? undefined : queued.shift();
    if (failure) {
      res.writeHead(failure.status, failure.headers ?? {}).end(failure.body ?? 'upstream internal failure: db-7 timeout');
      return;
    }
    const path = url.pathname;
    if (req.method === 'GET' && path === '/categories/search') {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      if (query === 'explode') return void res.writeHead(500).end('provider failure');
      return json(res, 200, { results: CATALOGUE.filter((c) => c.name.toLowerCase().includes(query)) });
    }
    if (req.method === 'POST' && (path === '/person_role_search/' || path === '/person_role_search/totals/')) {
      const title = typeof body.role_title === 'string' ? body.role_title : undefined;
      if (title === 'explode') return void res.writeHead(500).end('stack trace: at Search.run (search.py:12)');
      const found = matching(title);
      if (path.endsWith('/totals/')) return json(res, 200, { total_search_results: found.length });
      const page = Number(body.page ?? 1);
      const slice = found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
      return json(res, 200, { search_results: slice.map(roleOf), total_search_results: found.length });
    }
    if (req.method === 'POST' && path === '/organization_search/') {
      const page = Number(body.page ?? 1);
      const orgs = Array.from({ length: 10 }, (_, i) => ({
        id: `o${i}`,
        name: `Org ${i}`,
        domain: `org${i}.example`,
        website: `https://org${i}.example`,
        industry: { name: 'Computer Software' },
        employees: 10 * (i + 1),
        location: { name: 'Madrid, Spain' },
      }));
      return json(res, 200, { search_results: page === 1 ? orgs : [], total_search_results: orgs.length });
    }
    const auto = /^\/autocomplete\/([a-z_]+)\/$/.exec(path);
    if (req.method === 'GET' && auto) {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const results = CATALOGUE.filter((c) => c.category === auto[1] && c.name.toLowerCase().includes(q)).map((c) => ({ id: c.id, text: c.name }));
      return json(res, 200, { results, pagination: { more: false } });
    }
    const contacts = /^\/person_contacts_lookup\/(work_emails|personal_emails|phone_numbers)\/$/.exec(path);
    if (req.method === 'POST' && contacts) {
      const p = people.find((x) => x.id === body.person_id);
      if (!p) return json(res, 200, []);
      if (contacts[1] === 'work_emails') return json(res, 200, p.workEmail ? [{ email: p.workEmail, validation_status: 'valid' }] : []);
      if (contacts[1] === 'personal_emails')
        return json(res, 200, [{ email: `${p.first}${p.n}@mail.example`.toLowerCase(), validation_status: 'unknown' }]);
      return json(res, 200, [{ phone_number: `+3460000${String(p.n).padStart(4, '0')}`, type: 'mobile' }]);
    }
    if (req.method === 'POST' && path === '/person_detail_lookup/') {
      const p = people.find((x) => x.id === body.person_id);
      return json(res, 200, p ? roleOf(p).person : null);
    }
    res.writeHead(404).end();
  });
  const port = await listenInTestRange(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls,
    failNext: (...answers) => void queued.push(...answers),
    matching,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A local stand-in for the venue provider (`GET /venues/search?region=&query=&limit=`, Bearer key). */
export async function startVenuesStandIn(apiKey: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.headers.authorization !== `Bearer ${apiKey}`) return void res.writeHead(401).end();
    if (url.pathname !== '/venues/search') return void res.writeHead(404).end();
    const region = url.searchParams.get('region') ?? '';
    const query = url.searchParams.get('query') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const results = Array.from({ length: Math.min(limit, 3) }, (_, i) => ({
      id: `v${i + 1}`,
      name: `${query} ${i + 1}`,
      address: `Calle ${i + 1}, ${region}`,
      category: query,
      website: null,
      phone: `+3491000000${i}`,
      latitude: 40.4 + i / 100,
      longitude: -3.7,
      rating: 4.5,
    }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  const port = await listenInTestRange(server);
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

const FINDER_VARIABLES = ['PEOPLE_DATA_BASE_URL', 'PEOPLE_DATA_API_KEY', 'VENUES_API_URL', 'VENUES_API_KEY'];

/**
 * Both finder providers as local stand-ins, configured for the app through its environment (the
 * keys named after `name`); `close` takes the configuration back and stops them.
 */
export async function useFinderStandIns(name: string): Promise<{ close(): Promise<void> }> {
  const [people, venues] = await Promise.all([startPeopleDataStandIn(`${name}-provider-key`), startVenuesStandIn(`${name}-venues-key`)]);
  Object.assign(process.env, {
    PEOPLE_DATA_BASE_URL: people.url,
    PEOPLE_DATA_API_KEY: `${name}-provider-key`,
    VENUES_API_URL: venues.url,
    VENUES_API_KEY: `${name}-venues-key`,
  });
  // A configuration change drops built providers: before the site's objects are made.
  resetConfig();
  return {
    async close() {
      for (const variable of FINDER_VARIABLES) delete process.env[variable];
      resetConfig();
      await Promise.all([people.close(), venues.close()]);
    },
  };
}
