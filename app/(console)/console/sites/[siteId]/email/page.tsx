import type { Metadata } from 'next';
import { Time } from '@/components/time';
import { config } from '@/lib/core/config';
import { emailLog, listRecipients } from '@/lib/email/service';
import { requireOwnedSite } from '../../../../_lib/session';
import { AddRecipientForm, RemoveRecipientButton, VerifyRecipientForm } from './email-forms';

export const metadata: Metadata = { title: 'Email · Site Growth Platform' };

export default async function EmailPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const [recipients, log] = await Promise.all([listRecipients(site.id), emailLog(site.id, { limit: 50, offset: 0 })]);
  const smtp = Boolean(config().SMTP_URL);
  return (
    <>
      <section className="card" aria-labelledby="outbox-heading">
        <h2 id="outbox-heading">{smtp ? 'Sent email' : 'Outbox'}</h2>
        <p>
          {smtp
            ? 'Messages are handed to the configured SMTP server; this log keeps who, when and the subject, not the bodies.'
            : 'No SMTP server is configured: messages your apps send stay here, on this machine. Nothing is delivered.'}{' '}
          Latest 50 of {log.total}.
        </p>
        {log.items.length === 0 ? (
          <p className="empty">No messages yet.</p>
        ) : (
          <ul className="messages">
            {log.items.map((m) => (
              <li key={m.id} data-message={m.id}>
                <details>
                  <summary>
                    <Time iso={m.created_at} /> · {m.subject} · to {m.to.join(', ')} · {m.status}
                  </summary>
                  <p className="sub">From {m.from}</p>
                  {m.text && <pre className="message-body">{m.text}</pre>}
                  {m.html && (
                    <>
                      <p className="sub">HTML (shown as source, never rendered):</p>
                      <pre className="message-body">{m.html}</pre>
                    </>
                  )}
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="recipients-heading">
        <h2 id="recipients-heading" tabIndex={-1}>
          Test recipients
        </h2>
        <p>
          Platform keys with only <span className="mono">email.send.test-only</span> may send to these verified addresses
          of yours, and nowhere else.
        </p>
        {recipients.length === 0 ? (
          <p className="empty">No addresses yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Test recipients of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {recipients.map((r) => (
                  <tr key={r.id} data-recipient={r.email}>
                    <td data-label="Address">{r.email}</td>
                    <td data-label="Status">
                      {r.verified ? (
                        <>
                          verified <Time iso={r.verified_at!} />
                        </>
                      ) : (
                        <VerifyRecipientForm siteId={site.id} recipientId={r.id} email={r.email} />
                      )}
                    </td>
                    <td data-label="Actions">
                      <RemoveRecipientButton siteId={site.id} recipientId={r.id} email={r.email} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <AddRecipientForm siteId={site.id} />
      </section>
    </>
  );
}
