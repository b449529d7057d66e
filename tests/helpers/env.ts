import { afterEach } from 'vitest';
import { config, resetConfig } from '@/lib/core/config';

/**
 * The environment variables `names` as the tests of a file set them: `withEnv({...})` unsets them
 * all, sets the given ones and reads the configuration again (answering a reader of it); after each
 * test they are back as they were.
 */
export function envFor(names: readonly string[]) {
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
    resetConfig();
  });
  return (env: Record<string, string>) => {
    for (const n of names) delete process.env[n];
    Object.assign(process.env, env);
    resetConfig();
    return () => config();
  };
}

/** Sets these environment variables (an undefined value unsets one) and reads the configuration again. */
export function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
}
