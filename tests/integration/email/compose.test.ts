import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { suppress } from '@/lib/email/repo';
import { composeEmail, emailDelivery, leadEmailHistory } from '@/lib/email/service';
import { createLead } from '@/lib/leads/repo';
import { createTenant, uniqueEmail } from '@/tests/helpers/harness';
import { startSmtpStandIn, type SmtpStandIn } from '@/tests/helpers/smtp-standin';

/** The console's "Write an email": the email port's own rules, from the site's sender, into the site's log. */
describe('a message the owner writes', () => {
  it('goes to the outbox without SMTP, linked to the lead with that address; a suppressed address is refused and nothing is sent', async () => {
    expect(emailDelivery()).toEqual({ kind: 'outbox' });
    const t = await createTenant();
    const email = uniqueEmail();
    const lead = await createLead(t.siteId, { site_id: t.siteId, name: 'Ada', email, status: 'new' });
    const sent = await composeEmail(t.siteId, { to: email, subject: 'Your quote', text: 'Here it is.' });
    expect(sent).toMatchObject({ transport: 'outbox', status: 'stored', to: [email] });
    const history = await leadEmailHistory(t.siteId, lead.id);
    expect(history.items).toEqual([expect.objectContaining({ id: sent.id, subject: 'Your quote', text: expect.stringContaining('Here it is.') })]);

    const gone = uniqueEmail();
    await suppress(t.siteId, gone, 'unsubscribed');
    await expect(composeEmail(t.siteId, { to: gone, subject: 'Hello', text: 'Again' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
  });
});

describe('a message the owner writes, over SMTP', () => {
  let smtp: SmtpStandIn;
  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    process.env.SMTP_URL = smtp.url;
    resetConfig();
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    await smtp?.close();
  });

  it('carries a one-click unsubscribe at the origin the console was reached at (PUBLIC_URL unset), not a default port', async () => {
    const t = await createTenant();
    const email = uniqueEmail();
    const seen = smtp.received.length;
    await composeEmail(t.siteId, { to: email, subject: 'Your quote', text: 'Here it is.' }, 'http://console.shop.example:3917');
    const mail = await smtp.next(seen);
    const headers = mail.raw.split(/\r\n\r\n/)[0].replace(/\r\n(?=[ \t])/g, '');
    expect(headers.match(/^List-Unsubscribe:\s*<([^>]+)>$/im)?.[1]).toMatch(
      /^http:\/\/console\.shop\.example:3917\/api\/email\/unsubscribe\?token=v1\./,
    );
    // The owner's own words go as written: no footer is added to them.
    expect(mail.parsed.text?.trim()).toBe('Here it is.');
  });
});
