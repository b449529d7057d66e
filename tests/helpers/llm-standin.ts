import { afterAll, afterEach, beforeAll } from 'vitest';
import { startLlmStandIn, useStandIn, type LlmStandIn } from './llm-server';

// The stand-in itself lives in ./llm-server (no test-runner imports, so benchmarks use it too).
export * from './llm-server';

/**
 * The importing test file runs with a model: a stand-in started before its tests (answering by
 * echo unless scripted), reset after each test, closed after the file. The returned handle is
 * that stand-in (usable from the tests on).
 */
export function useModelForFile(extra: Record<string, string> = {}): LlmStandIn {
  let standIn: LlmStandIn | undefined;
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    standIn = await startLlmStandIn();
    restore = useStandIn(standIn, extra);
  });
  afterEach(() => standIn?.reset());
  afterAll(async () => {
    restore?.();
    await standIn?.close();
  });
  return new Proxy({} as LlmStandIn, {
    get: (_target, name) => {
      if (!standIn) throw new Error('the model stand-in starts in beforeAll');
      const value = standIn[name as keyof LlmStandIn];
      return typeof value === 'function' ? value.bind(standIn) : value;
    },
    set: (_target, name, value) => Reflect.set(standIn!, name, value),
  });
}
