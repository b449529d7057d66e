import type { Metadata } from 'next';
import Link from 'next/link';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { config } from '@/lib/core/config';
import { isUuid } from '@/lib/core/schemas';
import { getMailbox } from '@/lib/email/inbound';
import { emailDelivery, emailLog, leadEmailHistory, listRecipients, senderWithDefaults, suppressionList } from '@/lib/email/service';
import { can } from '@/lib/members/permissions';
import {
  AddRecipientForm,
  CheckMailboxButton,
  ComposeEmailForm,
  MailboxForm,
  RemoveRecipientButton,
  SendAgentReplyForm,
  SenderForm,
  VerifyRecipientForm,
} from './email-forms';

export const metadata: Metadata = { title: 'Email · Site Growth Platform' };

export default async function EmailPage({
  params,
  searchParams,
}: {
  params: Promise<{ siteId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const works = can(role, 'crm.write');
  const manages = can(role, 'settings.manage');
  const wanted = (await searchParams).lead;
  // `?lead=<id>`: one lead's email history (sent and received).
  const leadId = typeof wanted === 'string' && isUuid(wanted) ? wanted.toLowerCase() : undefined;
  const page = { limit: 50, offset: 0 };
  const [recipients, log, sender, mailbox, suppressed] = await Promise.all([
    listRecipients(site.id),
    leadId ? leadEmailHistory(site.id, leadId, page) : emailLog(site.id, page),
    senderWithDefaults(site.id),
    getMailbox(site.id),
    suppressionList(site.id, { limit: 100, offset: 0 }),
  ]);
  const delivery = emailDelivery();
  const smtp = delivery.kind === 'smtp';
  return (
    <>
      <Card title="Write an email" id="compose">
        <p data-testid="email-delivery" className={smtp ? undefined : 'notice'}>
          {delivery.kind === 'smtp' ? (
            <>
              <strong>Delivery: SMTP.</strong> Messages are handed to the SMTP server at <span className="mono">{delivery.host}</span>.
            </>
          ) : (
            <>
              <strong>Delivery: outbox only.</strong> No SMTP server is configured (<span className="mono">SMTP_URL</span>), so messages are kept in
              the outbox below and nothing leaves this machine. The operator sets <span className="mono">SMTP_URL</span> to deliver them.
            </>
          )}{' '}
          Each message comes from{' '}
          <span className="mono">
            &quot;{sender.from_name}&quot; &lt;{sender.from_address}&gt;
          </span>
          ; an unsubscribed or bounced address is never written to.
        </p>
        {works && <ComposeEmailForm siteId={site.id} />}
      </Card>
      <Card title={leadId ? 'Email with this lead' : smtp ? 'Sent email' : 'Outbox'} id="outbox">
        <p>
          {smtp
            ? 'Messages are handed to the configured SMTP server; this log keeps who, when and the subject, not the bodies.'
            : 'No SMTP server is configured: messages your apps and workflows send stay here, on this machine. Nothing is delivered.'}{' '}
          Replies synced from the mailbox are listed too. Latest 50 of {log.total}.
          {leadId && (
            <>
              {' '}
              <Link href={`/console/sites/${site.id}/email`}>Show every message</Link>
            </>
          )}
        </p>
        {log.items.length === 0 ? (
          <EmptyState title="No messages yet." />
        ) : (
          <ul className="messages">
            {log.items.map((m) => (
              <li key={m.id} data-message={m.id}>
                <details>
                  <summary>
                    <Time iso={m.created_at} /> · {m.subject} ·{' '}
                    {m.direction === 'inbound' ? `from ${m.from} · ${m.kind}` : `to ${m.to.join(', ')} · ${m.status}`}
                  </summary>
                  <p className="sub">
                    {m.direction === 'inbound' ? `To ${m.to.join(', ')}` : `From ${m.from}`}
                    {m.message_id && (
                      <>
                        {' '}
                        · Message-ID <span className="mono">{m.message_id}</span>
                      </>
                    )}
                    {m.lead_id && !leadId && (
                      <>
                        {' '}
                        · <Link href={`/console/sites/${site.id}/email?lead=${m.lead_id}`}>lead’s email</Link>
                      </>
                    )}
                    {m.workflow_id && (
                      <>
                        {' '}
                        · run <span className="mono">{m.workflow_id}</span>
                      </>
                    )}
                    {m.command_id && (
                      <>
                        {' '}
                        · handed to the email agent (command <span className="mono">{m.command_id}</span>)
                      </>
                    )}
                  </p>
                  {m.text && <pre className="message-body">{m.text}</pre>}
                  {works && m.direction === 'inbound' && (m.kind === 'reply' || m.kind === 'message') && (
                    <SendAgentReplyForm siteId={site.id} emailId={m.id} />
                  )}
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
      </Card>

      <Card title="Sender" id="sender">
        <p>
          Every message of the site — workflows, agents, generated apps — comes from{' '}
          <span className="mono">
            &quot;{sender.from_name}&quot; &lt;{sender.from_address}&gt;
          </span>
          {sender.reply_to && (
            <>
              {' '}
              with replies to <span className="mono">{sender.reply_to}</span>
            </>
          )}
          , carries a Message-ID, and (to one person) a one-click unsubscribe link.
        </p>
        {manages && <SenderForm siteId={site.id} sender={sender} />}
      </Card>

      <Card title="Mailbox" id="mailbox">
        <p>
          The site’s IMAP mailbox is synced every {config().MAILBOX_SYNC_EVERY_MINUTES} minutes (a <span className="mono">syncEmails</span> run):
          replies to the site’s messages and messages from leads go to the email agent; bounces and automatic replies are recorded, never answered.
        </p>
        {mailbox && (
          <p className="sub" data-mailbox-state={mailbox.last_error_code ?? 'ok'}>
            {mailbox.last_error_code ? (
              `The last sync failed: ${mailbox.last_error_code}.`
            ) : mailbox.last_sync_at ? (
              <>
                Last synced <Time iso={mailbox.last_sync_at} /> (up to UID {mailbox.last_uid}).
              </>
            ) : (
              'Not synced yet.'
            )}
          </p>
        )}
        {manages && <MailboxForm siteId={site.id} mailbox={mailbox} />}
        {mailbox && works && <CheckMailboxButton siteId={site.id} />}
      </Card>

      <Card title="Unsubscribed and bounced" id="suppressed">
        <p>The site never writes to these addresses ({suppressed.total}).</p>
        {suppressed.items.length === 0 ? (
          <EmptyState title="Nobody yet." />
        ) : (
          <ul>
            {suppressed.items.map((x) => (
              <li key={x.email} data-suppressed={x.email}>
                {x.email} · {x.reason} · <Time iso={x.created_at} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      <SectionTable
        title="Test recipients"
        id="recipients"
        intro={
          <>
            Platform keys with only <span className="mono">email.send.test-only</span> may send to these verified addresses of yours, and nowhere
            else.
          </>
        }
        caption={`Test recipients of ${site.name}`}
        rows={recipients}
        rowKey={(r) => r.email}
        empty="No addresses yet."
        columns={[
          { header: 'Address', cell: (r) => r.email },
          {
            header: 'Status',
            cell: (r) =>
              r.verified ? (
                <>
                  verified <Time iso={r.verified_at!} />
                </>
              ) : manages ? (
                <VerifyRecipientForm siteId={site.id} recipientId={r.id} email={r.email} />
              ) : (
                'pending'
              ),
          },
          {
            header: 'Actions',
            hideHeader: true,
            cell: (r) => manages && <RemoveRecipientButton siteId={site.id} recipientId={r.id} email={r.email} />,
          },
        ]}
      >
        {manages && <AddRecipientForm siteId={site.id} />}
      </SectionTable>
    </>
  );
}
