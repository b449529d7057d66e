import { startBackgroundWork } from '@/lib/worker';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { describeWorkflowBehaviour } from './behaviour';

describeWorkflowBehaviour('embedded', async () => {
  const engine = new EmbeddedEngine();
  const worker = await startBackgroundWork();
  return { engine, stop: () => worker.stop() };
});
