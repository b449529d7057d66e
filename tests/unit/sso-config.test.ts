import { describe, expect, it } from 'vitest';
import { ssoConfigured } from '@/lib/core/config';
import { envFor } from '@/tests/helpers/env';

/** Single sign-on's variables are checked when the configuration is read (at start): all three or none. */
const NAMES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ALLOWED_DOMAINS', 'OIDC_NAME', 'NEXTAUTH_URL'];
const FULL = {
  OIDC_ISSUER: 'https://login.example.com/',
  OIDC_CLIENT_ID: 'console',
  OIDC_CLIENT_SECRET: 's3cret',
  NEXTAUTH_URL: 'https://growth.example.com',
};

const withEnv = envFor(NAMES);

describe('single sign-on configuration', () => {
  it('is off without its variables', () => {
    const c = withEnv({})();
    expect(ssoConfigured(c)).toBe(false);
    expect(c.OIDC_ALLOWED_DOMAINS).toEqual([]);
  });

  it('is on with the three and NEXTAUTH_URL; domains are lower-cased, the name defaults to SSO', () => {
    const c = withEnv({ ...FULL, OIDC_ALLOWED_DOMAINS: ' Example.com, corp.example ' })();
    expect(ssoConfigured(c)).toBe(true);
    expect(c.OIDC_ALLOWED_DOMAINS).toEqual(['example.com', 'corp.example']);
    expect(c.OIDC_NAME).toBe('SSO');
    expect(withEnv({ ...FULL, OIDC_ISSUER: 'http://127.0.0.1:9000' })().OIDC_ISSUER).toBe('http://127.0.0.1:9000');
  });

  it.each([
    [{ OIDC_ISSUER: FULL.OIDC_ISSUER, NEXTAUTH_URL: FULL.NEXTAUTH_URL }, 'missing: OIDC_CLIENT_ID, OIDC_CLIENT_SECRET'],
    [{ ...FULL, OIDC_CLIENT_SECRET: '' }, 'OIDC_CLIENT_SECRET'],
    [{ OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'x' }, 'missing: OIDC_ISSUER'],
    [{ OIDC_ISSUER: FULL.OIDC_ISSUER, OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'x' }, 'needs NEXTAUTH_URL'],
    [{ ...FULL, OIDC_ISSUER: 'http://login.example.com' }, 'OIDC_ISSUER: an https:// URL (http:// only on a loopback host)'],
    [{ ...FULL, OIDC_ISSUER: 'https://login.example.com/?tenant=1' }, 'OIDC_ISSUER: no query or fragment'],
    [{ ...FULL, OIDC_ALLOWED_DOMAINS: 'example.com, not a domain' }, 'OIDC_ALLOWED_DOMAINS'],
    [{ OIDC_ALLOWED_DOMAINS: 'example.com' }, 'OIDC_ALLOWED_DOMAINS is set without OIDC_ISSUER'],
  ])('refuses a partial or wrong set %#', (env, message) => {
    const read = withEnv(env as Record<string, string>);
    expect(read).toThrow('Invalid environment configuration');
    expect(read).toThrow(message);
  });
});
