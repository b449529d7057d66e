import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { frame, statementCache } from './statement-cache';

/**
 * Serves one embedded database (PGlite) to other processes of the app over a Unix socket, with
 * the Postgres wire protocol: the process that holds PGlite (the worker the server starts) serves
 * it, and the web process connects with the ordinary Postgres driver. So PGlite's WebAssembly
 * runs on the worker's thread, never on the thread that answers HTTP requests.
 *
 * PGlite is one backend session. Connections take turns: a connection holds the backend from its
 * first message until the backend is idle again (ReadyForQuery `I`) — a whole extended-protocol
 * exchange up to its Sync, a whole transaction — so no two clients' statements, portals or
 * transactions ever interleave. Messages are handed to PGlite (`execProtocolRaw`) every complete
 * message received so far in one call, as they are — except that a statement the backend already
 * holds parsed is not parsed again (lib/db/statement-cache.ts).
 *
 * The socket lives in a directory readable by this user only (0700): only this machine's user
 * that runs the app can connect, so no password is asked.
 */
export interface ProtocolBackend {
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  /** Hears the notifications of the holder's own statements on `channel` (those of the socket's come back in their answers). */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<unknown>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** The transaction status of the last ReadyForQuery in a backend answer (`I`, `T`, `E`), if any. */
export function lastReadyStatus(answer: Uint8Array): string | undefined {
  let status: string | undefined;
  let i = 0;
  while (i + 5 <= answer.length) {
    const type = answer[i];
    const length = ((answer[i + 1] << 24) | (answer[i + 2] << 16) | (answer[i + 3] << 8) | answer[i + 4]) >>> 0;
    if (type === 0x5a && length === 5 && i + 5 < answer.length) status = String.fromCharCode(answer[i + 5]);
    i += 1 + length;
  }
  return status;
}

/** A notification (NotificationResponse) of a backend answer: its whole message, channel and payload. */
interface EmbeddedNotification {
  frame: Uint8Array;
  channel: string;
  payload: string;
}

/**
 * Splits the notifications out of a backend answer. PGlite is one session: a notification
 * committed by any client's statement comes back in that statement's answer, whoever listens. The
 * server hands them to their listeners instead (`serveEmbedded`'s `onNotification`, the
 * connections that sent LISTEN).
 */
function takeNotifications(answer: Uint8Array): { rest: Uint8Array; notifications: EmbeddedNotification[] } {
  const notifications: EmbeddedNotification[] = [];
  const kept: Uint8Array[] = [];
  let i = 0;
  let from = 0;
  while (i + 5 <= answer.length) {
    const length = ((answer[i + 1] << 24) | (answer[i + 2] << 16) | (answer[i + 3] << 8) | answer[i + 4]) >>> 0;
    const end = i + 1 + length;
    if (answer[i] === 0x41 /* A */ && end <= answer.length) {
      const body = Buffer.from(answer.buffer, answer.byteOffset + i + 9, end - i - 9);
      const zero = body.indexOf(0);
      notifications.push({
        frame: answer.slice(i, end),
        channel: body.subarray(0, zero).toString('utf8'),
        payload: body.subarray(zero + 1, body.length - 1).toString('utf8'),
      });
      if (i > from) kept.push(answer.subarray(from, i));
      from = end;
    }
    i = end;
  }
  if (notifications.length === 0) return { rest: answer, notifications };
  if (from < answer.length) kept.push(answer.subarray(from));
  return { rest: Buffer.concat(kept), notifications };
}

/** The channel a simple-query `LISTEN channel` names (as node-postgres and psql send it), if the message is one. */
function listenedChannel(message: Uint8Array): string | undefined {
  if (message[0] !== 0x51 /* Q */) return undefined;
  const length = ((message[1] << 24) | (message[2] << 16) | (message[3] << 8) | message[4]) >>> 0;
  if (length < 5 || length + 1 > message.length) return undefined;
  const text = Buffer.from(message.buffer, message.byteOffset + 5, length - 5).toString('utf8');
  const m = /^\s*LISTEN\s+("(?:[^"]|"")+"|[A-Za-z_][\w$]*)\s*;?\s*$/i.exec(text);
  if (!m) return undefined;
  return m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1].toLowerCase();
}

/** A NotificationResponse message (the backend's process id: 0). */
function notificationFrame(channel: string, payload: string): Uint8Array {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from(`${channel}\0${payload}\0`, 'utf8')]);
  return frame(0x41 /* A */, body);
}

const simpleQuery = (text: string): Uint8Array => frame(0x51 /* Q */, Buffer.from(`${text}\0`, 'utf8'));

const SYNC = frame(0x53 /* S */, new Uint8Array());

export interface EmbeddedServer {
  readonly socketPath: string;
  close(): Promise<void>;
}

export async function serveEmbedded(
  backend: ProtocolBackend,
  socketPath: string,
  /** Every notification a client's statement committed (the holder's own listeners). */
  onNotification: (notification: EmbeddedNotification) => void = () => undefined,
): Promise<EmbeddedServer> {
  const dir = path.dirname(socketPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  rmSync(socketPath, { force: true }); // left by a process that was killed

  // The backend's turn: a FIFO of connections waiting for it.
  let turn: Promise<void> = Promise.resolve();
  const acquire = (): Promise<() => void> => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = turn.then(() => release);
    turn = turn.then(() => held);
    return ready;
  };

  // The backend session's statements and its transaction status after the last answer, shared by every connection.
  const statements = statementCache();
  let status = 'I';
  // The connections that sent LISTEN, by channel: each notification is written to them as it comes.
  const listening = new Map<string, Set<net.Socket>>();
  const exec = async (message: Uint8Array): Promise<Uint8Array> => {
    const raw = await statements.exchange(message, status, (bytes) => backend.execProtocolRaw(bytes));
    const { rest: answer, notifications } = takeNotifications(raw);
    status = lastReadyStatus(answer) ?? status;
    for (const notification of notifications) {
      onNotification(notification);
      relay(notification.channel, notification.frame);
    }
    return answer;
  };

  const relay = (channel: string, message: Uint8Array) => {
    for (const listener of listening.get(channel) ?? []) if (!listener.destroyed) listener.write(message);
  };
  const listen = (channel: string, socket: net.Socket) => {
    const listeners = listening.get(channel);
    if (listeners) return void listeners.add(socket);
    listening.set(channel, new Set([socket]));
    void backend
      .listen?.(channel, (payload) => relay(channel, notificationFrame(channel, payload)))
      .catch((error: unknown) => socket.destroy(error instanceof Error ? error : undefined));
  };

  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    let started = false;
    let release: (() => void) | undefined;
    let chain = Promise.resolve();
    let closed = false;

    const run = async (message: Uint8Array): Promise<Uint8Array> => {
      release ??= await acquire();
      const answer = await exec(message);
      // Idle again: the next connection's turn. In a transaction (T) or a failed one (E): keep it.
      if (status === 'I') {
        release();
        release = undefined;
      }
      return answer;
    };

    const handle = async (): Promise<void> => {
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (buffer.length < length) return;
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
          else if (code === CANCEL_REQUEST) socket.end();
          else if (code === PROTOCOL_3) {
            started = true;
            socket.write(await run(new Uint8Array(message)));
          } else socket.destroy();
          continue;
        }
        // Every complete message received so far (a whole Parse…Sync exchange, as a driver sends it
        // in one write) goes to the backend in one call: one turn, one entry into PGlite per exchange.
        let end = 0;
        let terminate = false;
        while (end + 5 <= buffer.length) {
          const length = 1 + buffer.readInt32BE(end + 1);
          if (end + length > buffer.length) break;
          if (buffer[end] === 0x58 /* X: Terminate */) {
            terminate = true;
            break;
          }
          end += length;
        }
        if (end > 0) {
          const messages = buffer.subarray(0, end);
          buffer = buffer.subarray(end);
          const channel = listenedChannel(messages);
          if (channel !== undefined) listen(channel, socket);
          const answer = await run(messages);
          if (answer.length && !socket.destroyed) socket.write(answer);
        }
        if (terminate) socket.end();
        return;
      }
    };

    socket.on('data', (data) => {
      buffer = buffer.length ? Buffer.concat([buffer, data]) : data;
      chain = chain.then(handle).catch(() => void socket.destroy());
    });
    const cleanup = () => {
      if (closed) return;
      closed = true;
      sockets.delete(socket);
      for (const listeners of listening.values()) listeners.delete(socket);
      // A client gone while it held the backend: end what it left open, then pass the turn on.
      chain = chain.then(async () => {
        if (!release) return;
        await backend.execProtocolRaw(SYNC).catch(() => undefined);
        await backend.execProtocolRaw(simpleQuery('rollback')).catch(() => undefined);
        status = 'I';
        release();
        release = undefined;
      });
    };
    socket.on('close', cleanup);
    socket.on('error', cleanup);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);

  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
