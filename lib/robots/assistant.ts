import { onAnnouncement } from '@/lib/db/announcements';
import { onRunEnd } from '@/lib/workflows/run-events';
import { getWorkflowRun } from '@/lib/workflows/service';
import { logsAfter, toLog } from './instance-logs-repo';

/**
 * Progress of an assistant run as events: each new instance log (`log`), then the run's record
 * when it has finished (`done`). Woken by what the database announces as it commits — a log line
 * of the instance (`instance_logs`, a trigger), the run's end (lib/workflows/run-events.ts) — never
 * by a clock; stops after `maxMs` (`timeout`; the run goes on and stays readable in
 * GET /api/logs/workflows/{workflowId}).
 */
export interface AssistantEvents {
  send(event: string, data: unknown): void;
}

export async function followAssistantRun(
  siteId: string,
  run: { workflowId: string; instanceId: string; since: Date },
  sink: AssistantEvents,
  maxMs = 10 * 60_000,
): Promise<void> {
  let cursor = run.since;
  const sent = new Set<string>();
  const flush = async () => {
    for (const row of await logsAfter(siteId, run.instanceId, cursor)) {
      if (sent.has(row.id)) continue;
      sent.add(row.id);
      sink.send('log', toLog(row));
      cursor = row.createdAt;
    }
  };
  let wake = () => {};
  // The run's record as its end announced it: an engine may still answer RUNNING for a moment after (Temporal).
  let ended: Awaited<ReturnType<typeof getWorkflowRun>> | undefined;
  const stops = await Promise.all([
    onAnnouncement('instance_logs', (instanceId) => (instanceId === undefined || instanceId === run.instanceId) && wake()),
    onRunEnd((end) => {
      if (end && end.workflowId !== run.workflowId) return;
      if (end?.record) ended = end.record;
      wake();
    }),
  ]);
  const deadline = AbortSignal.timeout(maxMs);
  const timedOut = new Promise<void>((resolve) => deadline.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const record = await getWorkflowRun(siteId, run.workflowId);
      await flush();
      const final = record.status !== 'RUNNING' ? record : ended;
      if (final) {
        sink.send('done', final);
        return;
      }
      if (deadline.aborted) break;
      await Promise.race([changed, timedOut]);
    }
  } finally {
    for (const stop of stops) stop();
  }
  sink.send('timeout', { workflowId: run.workflowId, message: 'The run goes on; follow it in GET /api/logs/workflows/{workflowId}' });
}
