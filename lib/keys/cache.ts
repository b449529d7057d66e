import { now } from '@/lib/core/clock';
import { openedDatabase, type Database } from '@/lib/db/client';

/**
 * Keys this process verified, kept so that a key's next requests need no lookup: at ingestion rates
 * the lookup was one of a tracked event's two database round trips. Only keys that exist are kept
 * (an unknown key is looked up every time), each at most MAX_AGE_MS, and everything is forgotten
 * whenever anything that a lookup answers may have changed:
 * - in the process that changes it, right after the change commits (`keysChanged`: key revoked, site
 *   deleted, plan set), so its very next request is refused or limited anew;
 * - on Postgres, in every other process when the change's notification arrives (the triggers of
 *   migration 20261125170000 announce each committed change on `api_key_changes`; each process
 *   listens on a connection of its own). While that connection is down, or where notifications do
 *   not arrive (through a transaction-mode pooler), nothing is kept: every request looks its key up;
 * - on the embedded database, the web process serves every request and makes every change through
 *   the app; a change made outside it (an operator's `npm run site:plan`, SQL by hand) is seen
 *   within MAX_AGE_MS.
 * A lookup that was running when a change came is not kept (the generation moved on meanwhile).
 */
export const MAX_AGE_MS = 5_000;
/** Keys kept at most (a process that saw more starts again from none: memory stays bounded). */
const MAX_KEYS = 10_000;
const CHANNEL = 'api_key_changes';

interface Entry<K> {
  key: K;
  until: number;
}

interface State {
  entries: Map<string, Entry<unknown>>;
  /** Moves on with every change: a lookup started before it is not kept. */
  generation: number;
  /** The database the entries came from; a new process database (tests) starts afresh. */
  db?: Database;
  /** Whether entries may be kept and used (always on the embedded database; on Postgres while listening). */
  keeping: boolean;
}

// Next may load this module more than once: one cache per process.
const STATE = Symbol.for('sgp.verifiedKeys');
const holder = globalThis as { [STATE]?: State };
const state: State = (holder[STATE] ??= { entries: new Map(), generation: 0, keeping: false });

/** Call after committing a change to a key or to its site's plan or limits: every kept key is forgotten. */
export function keysChanged(): void {
  state.generation++;
  state.entries.clear();
}

/** Whether the cache may be used now, following the process database as it opens (and is replaced). */
function keeping(): boolean {
  const db = openedDatabase();
  if (!db) return false;
  if (state.db !== db) {
    state.db = db;
    keysChanged();
    state.keeping = !db.listen;
    db.listen?.(CHANNEL, keysChanged, (listening) => {
      if (state.db !== db) return;
      // Either way what is kept may be stale: before the first LISTEN, or across a dropped connection.
      keysChanged();
      state.keeping = listening;
    });
  }
  return state.keeping;
}

/** A key this process verified and still keeps, by its hash. */
export function keptKey<K>(keyHash: string): K | undefined {
  if (!keeping()) return undefined;
  const entry = state.entries.get(keyHash);
  if (!entry) return undefined;
  if (entry.until > now()) return entry.key as K;
  state.entries.delete(keyHash);
  return undefined;
}

/**
 * The key of `keyHash`: the one this process keeps, else what `lookup` finds — kept when `keep` says
 * so, unless something changed while the lookup ran.
 */
export function keptOrLookedUp<K>(
  keyHash: string,
  lookup: (keyHash: string) => Promise<K | undefined>,
  keep: (key: K) => boolean,
): Promise<K | undefined> {
  const kept = keptKey<K>(keyHash);
  if (kept) return Promise.resolve(kept);
  const generation = state.generation;
  return lookup(keyHash).then((key) => {
    if (key && keep(key) && generation === state.generation && keeping()) {
      if (state.entries.size >= MAX_KEYS) state.entries.clear();
      state.entries.set(keyHash, { key, until: now() + MAX_AGE_MS });
    }
    return key;
  });
}
