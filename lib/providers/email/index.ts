import nodemailer from 'nodemailer';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { defineProvider, provider } from '@/lib/core/providers';

/** One message as handed to the transport: addresses already validated, bodies already bounded. */
export interface OutgoingEmail {
  /** An address, or `"Display name" <address>`. */
  from: string;
  /** The Message-ID header, `<id@domain>`, set by the sender so replies can be threaded to it. */
  messageId: string;
  /** Further headers (List-Unsubscribe); names and values are single lines built by the sender. */
  headers?: Record<string, string>;
  /** The Message-ID this message answers, and the thread's Message-IDs (oldest first): In-Reply-To and References. */
  inReplyTo?: string;
  references?: string[];
  to: string[];
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
}

/**
 * The email port. `outbox` (embedded default, no SMTP_URL): nothing leaves the machine — the
 * caller stores the whole message in the site's outbox, which the owner reads in the console.
 * `smtp` (SMTP_URL set): the message is handed to that SMTP server through nodemailer.
 */
export interface EmailTransport {
  kind: 'outbox' | 'smtp';
  /** Delivers the message (smtp) or accepts it for the outbox; the SMTP server's message id when there is one. */
  deliver(message: OutgoingEmail): Promise<{ providerMessageId: string | null }>;
  close?(): void;
}

const outboxTransport: EmailTransport = {
  kind: 'outbox',
  deliver: async () => ({ providerMessageId: null }),
};

export function smtpTransport(url: string, timeoutMs: number): EmailTransport {
  const transporter = nodemailer.createTransport(url, {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Never write envelopes, credentials or bodies to the console.
    logger: false,
    debug: false,
  });
  return {
    kind: 'smtp',
    async deliver(message) {
      try {
        const info = await transporter.sendMail({
          from: message.from,
          to: message.to,
          replyTo: message.replyTo,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          inReplyTo: message.inReplyTo,
          references: message.references,
          headers: message.headers,
          // The addresses were validated; never let a body or header carry a file or URL to fetch.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        const rejected = (info.rejected ?? []).length;
        if (rejected > 0 && rejected === message.to.length) {
          throw new ApiError('PROVIDER_ERROR', 'The SMTP server refused every recipient');
        }
        return { providerMessageId: typeof info.messageId === 'string' ? info.messageId : null };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        // The SMTP server's reply may quote addresses: log the names of things only.
        log.warn('smtp delivery failed', errorFields(error));
        throw new ApiError('PROVIDER_ERROR', 'The SMTP server did not accept the message');
      }
    },
    close: () => transporter.close(),
  };
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    email: EmailTransport;
  }
}

defineProvider(
  'email',
  () => {
    const c = config();
    return c.SMTP_URL ? smtpTransport(c.SMTP_URL, c.SMTP_TIMEOUT_MS) : outboxTransport;
  },
  (transport) => transport.close?.(),
);

/** The configured email transport: SMTP when SMTP_URL is set, else the embedded outbox. */
export const emailTransport = (): EmailTransport => provider('email');
