import { now } from '@/lib/core/clock';
import { processState } from '@/lib/core/process-state';
import { cacheGeneration, cacheUsable, credentialsChanged } from '@/lib/db/cache-coherence';

/**
 * Keys this process verified, kept so that a key's next requests need no lookup: at ingestion rates
 * the lookup was one of a tracked event's two database round trips. Only keys that exist are kept
 * (an unknown key is looked up every time), each at most MAX_AGE_MS. When they may be used, and how
 * a change makes every process forget them before it answers, is lib/db/cache-coherence.ts:
 * - a change to a key (revoked or rescoped) calls `keysChanged()`, a change to its site (deleted,
 *   plan set) the database layer's `credentialsChanged()` — the generation moves on, so every entry
 *   kept before is dropped — after it commits, and answers once it resolves: no process answers
 *   from what it kept before the change;
 * - on Postgres a process keeps only while its listening connection is up and its lease is live;
 * - on the embedded database, the web process serves every request and makes every change through
 *   the app; a change made outside it (an operator's `npm run site:plan`, SQL by hand) is seen
 *   within MAX_AGE_MS.
 * A lookup that was running when a change came is not kept (the generation moved on meanwhile).
 */
export const MAX_AGE_MS = 5_000;
/** Keys kept at most (a process that saw more starts again from none: memory stays bounded). */
const MAX_KEYS = 10_000;

interface Entry<K> {
  key: K;
  until: number;
}

interface State {
  entries: Map<string, Entry<unknown>>;
  /** The coherence generation the entries were kept in; another one drops them all. */
  generation: number;
}

// Next may load this module more than once: one cache per process.
const state: State = processState<State>('keys.verified', () => ({ entries: new Map(), generation: -1 }));

/** Call after committing a change to a key or to its site's plan or limits, and await it before answering. */
export function keysChanged(): Promise<void> {
  state.entries.clear();
  return credentialsChanged();
}

/** Whether kept keys may be used now; entries of an earlier generation are dropped. */
function keeping(): boolean {
  const usable = cacheUsable();
  const generation = cacheGeneration();
  if (state.generation !== generation) {
    state.entries.clear();
    state.generation = generation;
  }
  return usable;
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
  const generation = cacheGeneration();
  return lookup(keyHash).then((key) => {
    if (key && keep(key) && keeping() && generation === cacheGeneration()) {
      if (state.entries.size >= MAX_KEYS) state.entries.clear();
      state.entries.set(keyHash, { key, until: now() + MAX_AGE_MS });
    }
    return key;
  });
}
