import { ImapFlow } from 'imapflow';
import { config } from '@/lib/core/config';
import { checkOutboundHost, OutboundFailedError, OutboundRefusedError } from '@/lib/net/guard';

/**
 * A site's mailbox over IMAP (imapflow). The server's host is checked like every outbound target
 * (a public address unless allow-listed in OUTBOUND_ALLOW_HOSTS) and the connection goes to the
 * checked address. Nothing of the session is logged: no credentials, no addresses, no bodies.
 */
export interface MailboxConnection {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
  folder: string;
}

export const MAILBOX_ERRORS = ['MAILBOX_AUTH_FAILED', 'MAILBOX_UNREACHABLE', 'MAILBOX_FOLDER_NOT_FOUND', 'MAILBOX_NOT_CONFIGURED'] as const;
export type MailboxErrorCode = (typeof MAILBOX_ERRORS)[number];

/** Why the mailbox could not be read; the message names the kind of failure, never a secret. */
export class MailboxError extends Error {
  constructor(
    readonly code: MailboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MailboxError';
  }
}

function asMailboxError(error: unknown, c: Pick<MailboxConnection, 'host' | 'port' | 'folder'>): MailboxError {
  if (error instanceof MailboxError) return error;
  const e = error as { authenticationFailed?: boolean; mailboxMissing?: boolean; serverResponseCode?: string; code?: string };
  if (e?.authenticationFailed || e?.serverResponseCode === 'AUTHENTICATIONFAILED') {
    return new MailboxError('MAILBOX_AUTH_FAILED', `The IMAP server ${c.host} refused the username or password`);
  }
  // imapflow marks a SELECT/EXAMINE refused for a missing folder `mailboxMissing` (the server may add [NONEXISTENT]).
  if (e?.mailboxMissing || e?.serverResponseCode === 'NONEXISTENT' || e?.code === 'NoMailbox') {
    return new MailboxError('MAILBOX_FOLDER_NOT_FOUND', `The folder ${c.folder} does not exist in the mailbox`);
  }
  if (error instanceof OutboundRefusedError)
    return new MailboxError('MAILBOX_UNREACHABLE', `The IMAP server is not reachable from here: ${error.message}`);
  const reason = error instanceof OutboundFailedError ? error.message : (e?.code ?? 'the connection failed');
  return new MailboxError('MAILBOX_UNREACHABLE', `The IMAP server ${c.host}:${c.port} could not be reached (${reason})`);
}

async function withMailbox<T>(c: MailboxConnection, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const timeout = config().IMAP_TIMEOUT_MS;
  let client: ImapFlow | undefined;
  try {
    const address = await checkOutboundHost(c.host);
    client = new ImapFlow({
      host: address,
      port: c.port,
      secure: c.tls,
      ...(address !== c.host.replace(/^\[|\]$/g, '') ? { servername: c.host } : {}),
      auth: { user: c.username, pass: c.password },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    // A connection error after connect() is reported here too; the call that hits it rejects.
    client.on('error', () => undefined);
    await client.connect();
    const lock = await client.getMailboxLock(c.folder, { readOnly: true });
    try {
      return await work(client);
    } finally {
      lock.release();
    }
  } catch (error) {
    throw asMailboxError(error, c);
  } finally {
    if (client?.usable) await client.logout().catch(() => undefined);
    else client?.close();
  }
}

/** Signs in and opens the folder: how many messages it holds, or the MailboxError of the failure. */
export function checkMailbox(c: MailboxConnection): Promise<{ messages: number }> {
  return withMailbox(c, async (client) => ({ messages: client.mailbox ? client.mailbox.exists : 0 }));
}

/** The largest part of a message read (headers and the start of the body are enough to answer it). */
const MAX_SOURCE_BYTES = 512 * 1024;

export interface FetchedMessage {
  uid: number;
  source: Buffer;
  receivedAt: Date | null;
}

/**
 * The folder's messages after `lastUid` of generation `uidValidity` (all of them when the
 * generation changed or none was seen), oldest first, at most `max`.
 */
export function fetchNewMessages(
  c: MailboxConnection,
  position: { uidValidity: number | null; lastUid: number },
  max: number,
): Promise<{ uidValidity: number; messages: FetchedMessage[] }> {
  return withMailbox(c, async (client) => {
    const box = client.mailbox;
    if (!box) throw new MailboxError('MAILBOX_FOLDER_NOT_FOUND', `The folder ${c.folder} could not be opened`);
    const uidValidity = Number(box.uidValidity);
    const after = position.uidValidity === uidValidity ? position.lastUid : 0;
    const messages: FetchedMessage[] = [];
    if (box.exists === 0) return { uidValidity, messages };
    // `n:*` always names the newest message, even below n: filter by UID.
    const found = await client.search({ uid: `${after + 1}:*` }, { uid: true });
    const uids = (found || [])
      .filter((uid) => uid > after)
      .sort((x, y) => x - y)
      .slice(0, max);
    if (uids.length === 0) return { uidValidity, messages };
    for await (const m of client.fetch(uids.join(','), { uid: true, internalDate: true, source: { maxLength: MAX_SOURCE_BYTES } }, { uid: true })) {
      if (m.source) messages.push({ uid: m.uid, source: m.source, receivedAt: m.internalDate ? new Date(m.internalDate) : null });
    }
    messages.sort((x, y) => x.uid - y.uid);
    return { uidValidity, messages };
  });
}
