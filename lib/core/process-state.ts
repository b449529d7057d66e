/**
 * Everything one process keeps between requests — the database handle, caches, batchers, the job
 * queue's client, the provider container, memos — lives here, in one store per process on
 * `globalThis`. Next may load a module more than once (route bundles, dev reloads) and the server
 * entry's fast path is a second bundle of the same modules (scripts/fast-path.ts): state kept in
 * module variables would fork silently, one copy per bundle. A slot taken here is the same object
 * for every copy of the module that asks by the same name.
 *
 * `globalThis` and module-level mutable state anywhere else are refused by
 * tests/unit/architecture.test.ts, which also checks that each slot name is taken by one module only.
 * (A `Symbol.for` brand, as ApiError's, is no state: it marks objects the same way in every copy.)
 */
const STORE = Symbol.for('sgp.processState');
type Store = Map<string, unknown>;
const store = (): Store => ((globalThis as { [STORE]?: Store })[STORE] ??= new Map());

/** The process's one value of the slot `name`, made by `init` the first time any copy asks for it. */
export function processState<T>(name: string, init: () => T): T {
  const slots = store();
  if (!slots.has(name)) slots.set(name, init());
  return slots.get(name) as T;
}

/**
 * A map that keeps at most `max` entries, dropping the least recently used: a cache kept for the
 * life of the process whose keys come from requests (origins, sites, statement texts) cannot grow
 * without bound.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    // Most recently used last: the first entry is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
