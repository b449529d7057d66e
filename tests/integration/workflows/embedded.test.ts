import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { describeWorkflowBehaviour } from './behaviour';

describeWorkflowBehaviour('embedded', async () => {
  const engine = new EmbeddedEngine();
  await engine.startWorker();
  return { engine, stop: () => engine.close() };
});
