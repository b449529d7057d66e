import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** SMTP envelope: MAIL FROM and RCPT TO as the server received them. */
  envelope: { from: string; to: string[] };
  /** The authenticated SMTP user. */
  user: string | undefined;
  parsed: ParsedMail;
  raw: string;
}

export interface SmtpStandIn {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the next message received (or one already waiting beyond `seen`). */
  next(seen?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that requires AUTH with the given
 * credentials, keeps every message it accepts, and refuses recipients whose local part starts
 * with `refuse` (550), so the transport's failure path can be driven.
 */
export async function startSmtpStandIn(credentials = { user: 'mailer', pass: 'smtp-stand-in-password' }): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS to negotiate with a self-signed certificate.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refuse')) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          user: session.user as string | undefined,
          parsed: await simpleParser(raw),
          raw,
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    received,
    async next(seen = received.length) {
      while (received.length <= seen) await new Promise<void>((r) => waiters.push(r));
      return received[seen];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
