import { randomUUID } from 'node:crypto';
import type { Client, Pool } from 'pg';
import { errorFields, log } from '@/lib/core/log';

/** How long a new listening connection waits for its own probe before it counts as deaf. */
const PROBE_TIMEOUT_MS = 5_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * Listens on `channel` of a Postgres database on a connection of its own (LISTEN needs a session:
 * pool connections come and go). Before it reports `onListening(true)` it proves that notifications
 * arrive: it sends a probe through `pool` — the way every other statement of the process goes — and
 * waits for it. Through a transaction-mode pooler (Supabase's pooled string) a LISTEN is lost with
 * its transaction and the probe never comes: the listener then stays not listening, and tries again
 * later. Whenever the connection drops it reports `onListening(false)` and connects again, backing off.
 * Returns a function that stops it.
 */
export function listenForNotifications(
  /** A new client of the database, not yet connected. */
  newClient: () => Client,
  pool: Pool,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: (listening: boolean) => void,
): () => void {
  let stopped = false;
  let client: Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = 250;

  const connect = async () => {
    const c = (client = newClient());
    const probe = `probe ${randomUUID()}`;
    let probed = () => {};
    const arrived = new Promise<boolean>((resolve) => {
      probed = () => resolve(true);
      const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      timer.unref();
    });
    let down = false;
    const drop = (error?: unknown) => {
      if (down) return;
      down = true;
      onListening(false);
      void c.end().catch(() => undefined);
      if (stopped) return;
      log.warn('database notifications interrupted; listening again', { channel, ...(error ? errorFields(error) : {}) });
      retry = setTimeout(() => void connect(), backoff);
      retry.unref();
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (message) => {
      if (message.channel !== channel) return;
      if (message.payload === probe) probed();
      else onNotify(message.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`listen "${channel.replaceAll('"', '""')}"`);
      await pool.query('select pg_notify($1, $2)', [channel, probe]);
    } catch (error) {
      return drop(error);
    }
    if (!(await arrived)) return drop(new Error('a notification sent did not arrive (a transaction-mode pooler?)'));
    if (stopped || down) return;
    backoff = 250;
    onListening(true);
  };

  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    void client?.end().catch(() => undefined);
  };
}
