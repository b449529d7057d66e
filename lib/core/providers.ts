/**
 * The provider container: every outside service (clock, storage, people data, rate-limit store,
 * workflow engine, model, email, robots…) is one named slot, built once from config on first
 * use, with one way for tests to put a stand-in in its place.
 *
 * The container knows the ports by type only. Each port module declares its slot by merging
 * into `ProviderMap` and registering the factory that builds the configured adapter:
 *
 *   declare module '@/lib/core/providers' { interface ProviderMap { storage: FileStorage } }
 *   defineProvider('storage', () => (config().STORAGE_PROVIDER === 'supabase' ? … : …));
 *   export const fileStorage = () => provider('storage');
 *
 * so dependencies keep pointing down (a port imports core, never the reverse).
 */
import { processState } from './process-state';
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProviderMap {}

type Name = keyof ProviderMap;
type Factory<K extends Name> = () => ProviderMap[K];

type State = {
  factories: Map<string, () => unknown>;
  built: Map<string, unknown>;
  overrides: Map<string, unknown>;
  disposers: Map<string, (value: unknown) => unknown>;
};
// One container per process, even when Next loads a module twice.
const state: State = processState('providers', () => ({ factories: new Map(), built: new Map(), overrides: new Map(), disposers: new Map() }));

/** Registers the factory of a slot; `dispose` runs when the built instance is dropped. */
export function defineProvider<K extends Name>(name: K, factory: Factory<K>, dispose?: (value: ProviderMap[K]) => unknown): void {
  state.factories.set(name, factory);
  if (dispose) state.disposers.set(name, dispose as (value: unknown) => unknown);
}

/** The slot's instance: a test override, else the one built from config (built on first use). */
export function provider<K extends Name>(name: K): ProviderMap[K] {
  if (state.overrides.has(name)) return state.overrides.get(name) as ProviderMap[K];
  if (!state.built.has(name)) {
    const factory = state.factories.get(name);
    if (!factory) throw new Error(`No provider registered for ${String(name)}`);
    state.built.set(name, factory());
  }
  return state.built.get(name) as ProviderMap[K];
}

/** Tests: put stand-ins in slots; the returned function restores what was there. */
export function overrideProviders(partial: Partial<ProviderMap>): () => void {
  const previous = new Map(state.overrides);
  for (const [name, value] of Object.entries(partial)) state.overrides.set(name, value);
  return () => {
    state.overrides.clear();
    for (const [name, value] of previous) state.overrides.set(name, value);
  };
}

/** Drops built instances (after a config change, or at shutdown), disposing those that need it. */
export async function resetProviders(): Promise<void> {
  const built = [...state.built];
  state.built.clear();
  await Promise.all(built.map(([name, value]) => state.disposers.get(name)?.(value)));
}
