import { afterAll, afterEach, beforeAll } from 'vitest';
import { startLlmStandIn, useStandIn, type LlmStandIn } from './llm-server';
import { startedLater } from './started-later';

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
  return startedLater('the model stand-in', () => standIn);
}
