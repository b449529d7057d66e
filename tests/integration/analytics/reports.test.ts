import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createRoute } from '@/app/api/visitors/session/route';
import { analyticsReports, checkSpike, reportPeriods, reportSettings, saveReportSettings, sendDueReport } from '@/lib/analytics/reports';
import { resetConfig } from '@/lib/core/config';
import type { JobContext } from '@/lib/jobs/define';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';

/**
 * Email reports and the spike alert over visits tracked through the real routes, delivered by the
 * SMTP transport to a real SMTP server (`smtp-server` on loopback): what a report says, that a
 * period is reported once, who gets it, and that an alert is not repeated within the hour.
 */
let mine: Tenant;
let other: Tenant;
let smtp: SmtpStandIn;
const useClock = testClock();
const HOUR = 3_600_000;
const at = (date: string, hour = 10) => Date.parse(`${date}T00:00:00Z`) + hour * HOUR;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function visit(t: Tenant, when: number) {
  useClock(when);
  const res = await call(createRoute, {
    method: 'POST',
    path: '/api/visitors/session',
    headers: { ...presenters.xSaApiKey(t.key), 'user-agent': UA },
    body: { site_id: t.siteId, fingerprint: `fp-${Math.random().toString(36).slice(2)}`, url: 'https://shop.example.com/' },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  process.env.SMTP_URL = smtp.url;
  resetConfig();
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  // The week before: 2 visitors; the week reported (23–29 November): 3.
  for (const when of [at('2026-11-17'), at('2026-11-18'), at('2026-11-24'), at('2026-11-25'), at('2026-11-28')]) await visit(mine, when);
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetConfig();
  await smtp?.close();
});

describe('reportPeriods', () => {
  it('is the last whole week, Monday to Sunday, or the last whole month, and the one before', () => {
    expect(reportPeriods('weekly', '2026-12-02')).toEqual({
      current: { from: '2026-11-23', to: '2026-11-29' },
      previous: { from: '2026-11-16', to: '2026-11-22' },
    });
    expect(reportPeriods('weekly', '2026-11-30').current).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(reportPeriods('monthly', '2026-03-01')).toEqual({
      current: { from: '2026-02-01', to: '2026-02-28' },
      previous: { from: '2026-01-01', to: '2026-01-31' },
    });
  });
});

describe('weekly report', () => {
  it('arrives at the SMTP server once per week, each figure against the week before, to the chosen members only', async () => {
    await expect(saveReportSettings(mine.siteId, { frequency: 'weekly', recipients: [other.user.id], spike_threshold: null })).rejects.toThrow(
      /Not a member/,
    );
    await saveReportSettings(mine.siteId, { frequency: 'weekly', recipients: [mine.user.id], spike_threshold: null });
    expect(await reportSettings(mine.siteId)).toEqual({ frequency: 'weekly', recipients: [mine.user.id], spike_threshold: null });

    const seen = smtp.received.length;
    useClock(at('2026-12-02', 9));
    // The site's schedule runs it, as the worker does.
    await analyticsReports.run(mine.siteId, { id: 'test', attempt: 0, retryLimit: 0, signal: new AbortController().signal } as JobContext);
    const mail = await smtp.next(seen);
    expect(mail.envelope.to).toEqual([mine.user.email]);
    expect(mail.parsed.subject).toBe('Weekly analytics report: 2026-11-23 to 2026-11-29');
    expect(mail.parsed.text).toContain('2026-11-23 to 2026-11-29 (UTC), against 2026-11-16 to 2026-11-22');
    expect(mail.parsed.text).toContain('Visitors: 3 (before: 2, +50%)');
    expect(mail.parsed.text).toContain('Sessions: 3 (before: 2, +50%)');
    expect(mail.parsed.text).toContain('Bounce rate: 100% (before: 100%, +0 pts)');

    // The same week again, later: not sent twice.
    useClock(at('2026-12-03'));
    expect(await sendDueReport(mine.siteId)).toBe(false);
    expect(smtp.received.length).toBe(seen + 1);
    // The next week is due the Monday after.
    useClock(at('2026-12-07'));
    expect(await sendDueReport(mine.siteId)).toBe(true);
    expect((await smtp.next(seen + 1)).parsed.subject).toBe('Weekly analytics report: 2026-11-30 to 2026-12-06');
  });

  it('refuses bad settings with 400 naming the field', async () => {
    await expect(saveReportSettings(mine.siteId, { frequency: 'daily', recipients: [], spike_threshold: null })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(saveReportSettings(mine.siteId, { frequency: 'off', recipients: [], spike_threshold: 0 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});

describe('traffic-spike alert', () => {
  it('sends one mail when visitors of the last 5 minutes pass the threshold, not again within the hour', async () => {
    const t = await createTenant();
    await saveReportSettings(t.siteId, { frequency: 'off', recipients: [t.user.id], spike_threshold: 2 });
    const t0 = at('2026-12-05', 15);
    await visit(t, t0);
    await visit(t, t0 + 60_000);
    useClock(t0 + 2 * 60_000);
    expect(await checkSpike(t.siteId)).toBe(false);
    await visit(t, t0 + 3 * 60_000);
    const seen = smtp.received.length;
    useClock(t0 + 4 * 60_000);
    expect(await checkSpike(t.siteId)).toBe(true);
    const mail = await smtp.next(seen);
    expect(mail.envelope.to).toEqual([t.user.email]);
    expect(mail.parsed.subject).toBe('Traffic spike: 3 visitors in the last 5 minutes');
    // Still above within the hour: quiet.
    await visit(t, t0 + 30 * 60_000);
    await visit(t, t0 + 31 * 60_000);
    await visit(t, t0 + 32 * 60_000);
    useClock(t0 + 33 * 60_000);
    expect(await checkSpike(t.siteId)).toBe(false);
    // An hour after the alert, above again: another one.
    for (const m of [65, 66, 67]) await visit(t, t0 + m * 60_000);
    useClock(t0 + 68 * 60_000);
    expect(await checkSpike(t.siteId)).toBe(true);
    expect(smtp.received.length).toBe(seen + 2);
  });
});
