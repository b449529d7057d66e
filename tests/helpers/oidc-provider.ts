import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Provider for the single sign-on suites: the `oidc-provider` package (certified
 * OP implementation) on 127.0.0.1 at a free port, with one confidential client, PKCE required,
 * claims in the userinfo answer only (as many providers do), and a login page of its own at
 * /interaction/<uid> where a test (or a browser) types the subject of one of `accounts`.
 * Consent is granted for the client without asking, as for a first-party application.
 */
export interface OpAccount {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** subject → claims; a test changes them between sign-ins (an address changed at the provider). */
  accounts: Map<string, OpAccount>;
  /** Errors the provider answered with (a test asserts there were none). */
  errors: string[];
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, message = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Test OpenID Provider</title>
<style>body{font-family:sans-serif;max-width:22rem;margin:3rem auto;padding:0 1rem}input,button{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0}</style></head>
<body><h1>Test OpenID Provider</h1>${message ? `<p role="alert">${escape(message)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login"><label>Account <input name="login" autocomplete="username" autofocus></label><button type="submit">Continue</button></form></body></html>`;
}

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(options: { redirectUri: string }): Promise<TestOpenIdProvider> {
  const accounts = new Map<string, OpAccount>();
  const errors: string[] = [];
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'site-growth-console';
  const clientSecret = randomBytes(24).toString('hex');
  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    use: 'sig',
    alg: 'RS256',
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 3600, Session: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) };
    },
    // First-party client: its consent is implied, so the login page is the only interaction.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, result } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? session?.grantIdFor(client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client!.clientId, accountId: session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://op').pathname;
      const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(path);
      if (!interaction) return provider.callback()(req, res);
      const page = (status: number, html: string) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      };
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET' && !interaction[2]) return page(200, loginPage(details.uid));
        if (req.method !== 'POST' || !interaction[2]) return page(405, 'method not allowed');
        const login = (await formOf(req)).get('login')?.trim() ?? '';
        if (!accounts.has(login)) return page(200, loginPage(details.uid, `No account “${login}” at this provider.`));
        await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      } catch (error) {
        errors.push(String(error));
        page(400, `interaction failed: ${escape(String(error))}`);
      }
    })();
  });
  provider.on('server_error', (_ctx, error: Error) => errors.push(String(error)));

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
