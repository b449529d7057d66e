import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { database, type Database } from './client';

/**
 * Changes heard as they commit: the database announces them on a channel (`pg_notify`, most from
 * a trigger) and every process that asks hears them — on Postgres through a listening connection of
 * its own, on the embedded database in the process that holds it and, relayed by that process, in
 * those that reach it through its socket (lib/db/embedded-server.ts). Nothing asks the database
 * again and again.
 *
 * A listener is called with the payload, or with `undefined` when announcements may have been
 * missed (the listening connection dropped and is back): it reads again what it waits for.
 */
export type AnnouncementListener = (payload: string | undefined) => void;

interface Channel {
  listeners: Set<AnnouncementListener>;
  /** The database listened to, and when its LISTEN is in place. */
  on?: { db: Database; ready: Promise<void> };
}
const channels = processState('db.announcements', () => new Map<string, Channel>());

const channelOf = (name: string): Channel => {
  let channel = channels.get(name);
  if (!channel) channels.set(name, (channel = { listeners: new Set() }));
  return channel;
};

const tell = (channel: Channel, payload: string | undefined) => {
  for (const listener of channel.listeners) listener(payload);
};

function listenTo(name: string, channel: Channel, db: Database): Promise<void> {
  if (channel.on?.db === db) return channel.on.ready;
  const ready = new Promise<void>((resolve) => {
    if (!db.listen) return resolve();
    let first = true;
    db.listen(
      name,
      (payload) => channel.on?.db === db && tell(channel, payload),
      (listening) => {
        if (first) {
          first = false;
          resolve();
        } else if (listening && channel.on?.db === db) tell(channel, undefined);
        if (!listening) log.warn('database announcements: not listening until the connection is back', { channel: name });
      },
    );
  });
  channel.on = { db, ready };
  return ready;
}

/**
 * Calls `listener` on every announcement on `name` from now on. Resolves once announcements
 * committed from now on reach it: a caller reads the state it waits for after that. Answers the
 * function that stops it.
 */
export async function onAnnouncement(name: string, listener: AnnouncementListener): Promise<() => void> {
  const channel = channelOf(name);
  channel.listeners.add(listener);
  try {
    await listenTo(name, channel, await database());
  } catch (error) {
    log.warn('database announcements: the database is not reachable', { channel: name, ...errorFields(error) });
  }
  return () => channel.listeners.delete(listener);
}

/** An announcement of a change this process committed, to its own listeners at once (wherever the database's reaches). */
export const announceHere = (name: string, payload: string): void => tell(channelOf(name), payload);
