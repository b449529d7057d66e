import { afterAll, beforeAll } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { startSmtpStandIn, type SmtpStandIn } from './smtp-standin';
import { startedLater } from './started-later';

/**
 * The tests of the calling scope (a file, or a describe block) send mail through the SMTP
 * transport to a stand-in server (`./smtp-standin.ts`) started before them: SMTP_URL and
 * EMAIL_FROM (a shop's sender) set with any `extra` variables and the configuration read again;
 * all unset and the server closed after them. The returned handle is that stand-in (usable from
 * the tests on).
 */
export function useSmtpStandIn(extra: Record<string, string> = {}): SmtpStandIn {
  let standIn: SmtpStandIn | undefined;
  const vars = () => ({ SMTP_URL: standIn!.url, EMAIL_FROM: 'Shop <hello@shop.example.com>', ...extra });
  beforeAll(async () => {
    standIn = await startSmtpStandIn();
    Object.assign(process.env, vars());
    resetConfig();
  });
  afterAll(async () => {
    if (standIn) for (const name of Object.keys(vars())) delete process.env[name];
    resetConfig();
    await standIn?.close();
  });
  return startedLater('the SMTP stand-in', () => standIn);
}
