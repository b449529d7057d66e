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
  /** Messages accepted so far (kept in `received` or not). */
  readonly accepted: number;
  /** Resolves with the next message received (or one already waiting beyond `seen`). */
  next(seen?: number): Promise<ReceivedMail>;
  /**
   * The next message is kept (it counts as received) but its DATA is not answered until
   * `release()`: the sender waits for the reply, in the middle of its send.
   */
  holdNext(): { arrived: Promise<ReceivedMail>; release(): void };
  close(): Promise<void>;
}

export interface SmtpStandInOptions {
  /** Keep (and parse) each message in `received`; false only counts them (a benchmark's thousands). Default true. */
  keep?: boolean;
  /** Awaited before each message is answered: a benchmark holds the senders waiting while it measures without them. */
  beforeAnswer?: () => Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that requires AUTH with the given
 * credentials, keeps every message it accepts, and refuses recipients whose local part starts
 * with `refuse` (550), so the transport's failure path can be driven.
 */
export async function startSmtpStandIn(
  credentials = { user: 'mailer', pass: 'smtp-stand-in-password' },
  { keep = true, beforeAnswer }: SmtpStandInOptions = {},
): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  let accepted = 0;
  const waiters: (() => void)[] = [];
  let hold: { arrived: (mail: ReceivedMail) => void; released: Promise<void> } | undefined;
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
      stream.on('data', (c: Buffer) => keep && chunks.push(c));
      stream.on('end', async () => {
        await beforeAnswer?.();
        accepted++;
        if (!keep) return callback();
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          user: session.user as string | undefined,
          parsed: await simpleParser(raw),
          raw,
        };
        received.push(mail);
        waiters.splice(0).forEach((w) => w());
        const held = hold;
        hold = undefined;
        if (held) {
          held.arrived(mail);
          await held.released;
        }
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
    get accepted() {
      return accepted;
    },
    async next(seen = received.length) {
      while (received.length <= seen) await new Promise<void>((r) => waiters.push(r));
      return received[seen];
    },
    holdNext() {
      let release = () => {};
      const released = new Promise<void>((r) => (release = r));
      const arrived = new Promise<ReceivedMail>((resolve) => (hold = { arrived: resolve, released }));
      return { arrived, release };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
