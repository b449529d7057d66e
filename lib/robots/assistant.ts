import { logsAfter, toLog } from '@/lib/instances/repo';
import { getWorkflowRun } from '@/lib/workflows/service';

/**
 * Progress of an assistant run as events: each new instance log (`log`), then the run's record
 * when it has finished (`done`). Polls the log and the run; stops after `maxMs` (`timeout`; the
 * run goes on and stays readable in GET /api/logs/workflows/{workflowId}).
 */
export interface AssistantEvents {
  send(event: string, data: unknown): void;
}

const POLL_MS = 300;

export async function followAssistantRun(
  siteId: string,
  run: { workflowId: string; instanceId: string; since: Date },
  sink: AssistantEvents,
  maxMs = 10 * 60_000,
): Promise<void> {
  let cursor = run.since;
  const sent = new Set<string>();
  const deadline = Date.now() + maxMs;
  const flush = async () => {
    for (const row of await logsAfter(siteId, run.instanceId, cursor)) {
      if (sent.has(row.id)) continue;
      sent.add(row.id);
      sink.send('log', toLog(row));
      cursor = row.createdAt;
    }
  };
  while (Date.now() < deadline) {
    const record = await getWorkflowRun(siteId, run.workflowId);
    await flush();
    if (record.status !== 'RUNNING') {
      sink.send('done', record);
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  sink.send('timeout', { workflowId: run.workflowId, message: 'The run goes on; follow it in GET /api/logs/workflows/{workflowId}' });
}
