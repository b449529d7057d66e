import { describe, expect, it } from 'vitest';
import { suppress } from '@/lib/email/repo';
import { composeEmail, emailDelivery, leadEmailHistory } from '@/lib/email/service';
import { createLead } from '@/lib/leads/repo';
import { createTenant, uniqueEmail } from '@/tests/helpers/harness';

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
