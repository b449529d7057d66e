import { describe, expect, it } from 'vitest';
import { absoluteTime, clockTime, siteTimeZone } from '@/components/dates';
import { publicOrigin, publicOriginWarning } from '@/lib/core/public-url';
import { unsubscribeLinks } from '@/lib/email/unsubscribe';
import { envFor } from '@/tests/helpers/env';

const NAMES = ['PUBLIC_URL', 'NEXTAUTH_URL', 'PORT'];

const withEnv = envFor(NAMES);

describe('the public origin', () => {
  it('is PUBLIC_URL, then NEXTAUTH_URL, whatever the request reached', () => {
    withEnv({ PUBLIC_URL: 'https://growth.example.com/some/path', NEXTAUTH_URL: 'https://auth.example.com' });
    expect(publicOrigin('http://127.0.0.1:3917')).toBe('https://growth.example.com');
    expect(publicOrigin()).toBe('https://growth.example.com');
    withEnv({ NEXTAUTH_URL: 'https://auth.example.com/' });
    expect(publicOrigin('http://127.0.0.1:3917')).toBe('https://auth.example.com');
  });

  it('unset, is the request’s origin, and for a job without a request this server on localhost at its port', () => {
    withEnv({ PORT: '3917' });
    expect(publicOrigin('http://127.0.0.1:3917/console')).toBe('http://127.0.0.1:3917');
    expect(publicOrigin()).toBe('http://localhost:3917');
    withEnv({});
    expect(publicOrigin()).toBe('http://localhost:3000');
  });

  it('is the origin of the unsubscribe links in mail', () => {
    withEnv({ PUBLIC_URL: 'https://growth.example.com' });
    const links = unsubscribeLinks('5b6f6f3c-4f3c-4b1e-9f3c-0c1d2e3f4a5b', 'ada@example.com');
    expect(links.page).toMatch(/^https:\/\/growth\.example\.com\/unsubscribe\?token=/);
    expect(links.oneClick).toMatch(/^https:\/\/growth\.example\.com\/api\/email\/unsubscribe\?token=/);
    withEnv({ PORT: '3917' });
    expect(unsubscribeLinks('5b6f6f3c-4f3c-4b1e-9f3c-0c1d2e3f4a5b', 'ada@example.com', 'http://127.0.0.1:3917').page).toMatch(
      /^http:\/\/127\.0\.0\.1:3917\/unsubscribe\?token=/,
    );
  });

  it('warns at start when links would point where the server does not answer', () => {
    withEnv({ PUBLIC_URL: 'http://localhost:3000', PORT: '3917' });
    expect(publicOriginWarning()).toMatch(/PUBLIC_URL is http:\/\/localhost:3000 but this server listens on port 3917/);
    withEnv({ PUBLIC_URL: 'http://localhost:3917', PORT: '3917' });
    expect(publicOriginWarning('127.0.0.1')).toBeUndefined();
    withEnv({ PUBLIC_URL: 'https://growth.example.com', PORT: '3917' });
    expect(publicOriginWarning()).toBeUndefined();
    withEnv({ PORT: '3917' });
    expect(publicOriginWarning()).toMatch(
      /PUBLIC_URL is unset: links in mail sent by background jobs point at http:\/\/localhost:3917, on this machine only/,
    );
    expect(publicOriginWarning('10.0.0.5')).toMatch(/where this server \(on 10\.0\.0\.5\) does not answer/);
  });
});

describe('dates in the site’s time zone', () => {
  const iso = '2026-11-21T14:11:00.000Z';
  it('states the zone: UTC by default, the site’s short name otherwise', () => {
    expect(absoluteTime(iso)).toBe('Nov 21, 2026, 2:11 PM UTC');
    expect(absoluteTime(iso, 'Europe/Berlin')).toBe('Nov 21, 2026, 3:11 PM GMT+1');
    expect(absoluteTime(iso, 'America/Los_Angeles')).toBe('Nov 21, 2026, 6:11 AM PST');
    expect(clockTime(Date.parse(iso), 'Asia/Tokyo')).toBe('23:11:00 GMT+9');
    expect(clockTime(Date.parse(iso))).toBe('14:11:00 UTC');
  });

  it('takes the site’s zone from its settings, canonical, or none', () => {
    expect(siteTimeZone({ business_hours: { timezone: 'europe/berlin' } })).toBe('Europe/Berlin');
    expect(siteTimeZone({ business_hours: { timezone: 'Mars/Olympus' } })).toBeNull();
    expect(siteTimeZone({})).toBeNull();
  });
});
