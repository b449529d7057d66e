import http from 'node:http';
import { listenInTestRange } from './serve';

/**
 * A small local stand-in for the people-data provider's HTTP API
 * (`GET /categories/search?query=` with a Bearer key), with a fixed catalogue.
 */
export const CATALOGUE = [
  { id: 'ind_4', name: 'Computer Software', category: 'industry' },
  { id: 'ind_96', name: 'Information Technology and Services', category: 'industry' },
  { id: 'loc_2514256', name: 'Madrid, Spain', category: 'location' },
  { id: 'title_812', name: 'Software Engineer', category: 'job_title' },
  { id: 'sen_5', name: 'Director', category: 'seniority' },
];

export async function startPeopleDataStandIn(apiKey: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad key' }));
      return;
    }
    if (url.pathname !== '/categories/search') {
      res.writeHead(404).end();
      return;
    }
    const query = (url.searchParams.get('query') ?? '').toLowerCase();
    if (query === 'explode') {
      res.writeHead(500).end('provider failure');
      return;
    }
    const results = CATALOGUE.filter((c) => c.name.toLowerCase().includes(query));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  const port = await listenInTestRange(server);
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}
