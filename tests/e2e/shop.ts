/**
 * The three-page shop (landing, pricing, checkout, plus an account page with a logout) that the
 * browser suites paste the tracking tag into, served on 127.0.0.1, and the calls that set up its
 * owner, site and key on a running app.
 */
import { createServer, type Server } from 'node:http';

export const PAGE_PORT = Number(process.env.E2E_PAGE_PORT ?? 3421);
export const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const pageOrigin = `http://127.0.0.1:${PAGE_PORT}`;

export interface Shop {
  app: string;
  siteId: string;
  /** Headers of a read/write API key of the shop's site. */
  key: Record<string, string>;
  /** Path prefix of the shop's pages on the page server. */
  prefix: string;
  pingMs?: number;
  /** The site owner's console sign-in. */
  owner: { email: string; password: string };
}

export async function api(app: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(app + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export interface ApiInit {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * One JSON call to the app at `app`: status and parsed body. A 429 (the site's Basic plan allows
 * 60 requests a minute) waits its Retry-After (1 s without one) and tries again, up to `retries` times.
 */
export async function apiCall(app: string, path: string, init: ApiInit = {}, retries = 3): Promise<{ status: number; body: any }> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${app}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (res.status === 429 && attempt < retries) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      continue;
    }
    return { status: res.status, body: await res.json() };
  }
}

/** The session header of a signed-up owner, from the token route of the app at `app`. */
export async function ownerSession(app: string, email: string, password: string): Promise<Record<string, string>> {
  const token = (await apiCall(app, '/api/auth/token', { method: 'POST', body: { email, password } })).body.data.token;
  return { authorization: `Bearer ${token}` };
}

/** A new read/write API key named `name` of the owner's site. */
export async function readWriteKey(app: string, session: Record<string, string>, siteId: string, name: string): Promise<string> {
  const res = await apiCall(app, '/api/keys', { method: 'POST', headers: session, body: { name, scopes: ['read', 'write'], site_id: siteId } });
  return res.body.data.apiKey;
}

/** A user, a site whose domain is the page server, and an API key, on the app at `app`. */
export async function provision(app: string, prefix: string, pingMs?: number): Promise<Shop> {
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'e2e password 123';
  await api(app, 'POST', '/api/auth/signup', { email, password });
  const token = (await api(app, 'POST', '/api/auth/token', { email, password })).body.data.token;
  const auth = { authorization: `Bearer ${token}` };
  const siteId = (await api(app, 'POST', '/api/visitors/sites', { name: 'E2E shop', domain: `127.0.0.1:${PAGE_PORT}` }, auth)).body.data.id;
  const created = await api(app, 'POST', '/api/keys', { name: 'e2e', scopes: ['read', 'write'], site_id: siteId }, auth);
  return {
    app,
    siteId,
    owner: { email, password },
    key: { 'x-sa-api-key': created.body.data.apiKey, 'x-api-key': created.body.data.apiKey },
    prefix,
    pingMs,
  };
}

export const PAGES: Record<string, { title: string; body: string }> = {
  '/': { title: 'Home', body: '<p>Shoes for every day.</p>' },
  '/pricing': { title: 'Pricing', body: '<p>49 € a pair.</p>' },
  '/checkout': {
    title: 'Checkout',
    body: `<button id="buy" onclick="window.bought = sgp.track({event_type: 'conversion', event_name: 'purchase', properties: {value: 49, currency: 'EUR'}})">Buy</button>
      <form id="who" onsubmit="event.preventDefault(); window.identified = sgp.identify(this.email.value, 'Ada', 'Lovelace')">
        <input id="email" name="email" type="email"><button>Send me the receipt</button></form>`,
  },
  '/account': { title: 'Account', body: `<button id="logout" onclick="window.ended = sgp.end()">Log out</button>` },
};

export function shopPage(shop: Shop, path: string): string | undefined {
  const page = PAGES[path];
  if (!page) return undefined;
  const link = (p: string, label: string) => `<a href="${shop.prefix}${p}">${label}</a>`;
  return `<!doctype html><html><head><title>Shop · ${page.title}</title>
    <script>
      // Counts restorations from the back/forward cache (the test reads it).
      addEventListener('pageshow', function (e) { if (e.persisted) document.documentElement.dataset.restored = String(Number(document.documentElement.dataset.restored || 0) + 1); });
    </script>
    <script async src="${shop.app}/t.js" data-site-id="${shop.siteId}" data-include-localhost${shop.pingMs ? ` data-ping-interval="${shop.pingMs}"` : ''}></script>
    </head><body><nav>${link('/', 'Home')} ${link('/pricing', 'Pricing')} ${link('/checkout', 'Checkout')} ${link('/account', 'Account')}</nav>
    <h1>${page.title}</h1>${page.body}</body></html>`;
}

/** Serves the shop's pages on 127.0.0.1:PAGE_PORT; resolves once it listens. */
export async function serveShop(shop: Shop): Promise<Server> {
  const server = createServer((req, res) => {
    const html = shopPage(shop, new URL(req.url ?? '/', pageOrigin).pathname);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(PAGE_PORT, '127.0.0.1', r));
  return server;
}

/** Polls `read` until `ok` holds (the browser's calls are asynchronous to the test). */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 300; i++) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen; last seen: ${JSON.stringify(last)}`);
}
