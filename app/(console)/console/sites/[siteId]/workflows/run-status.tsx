import type { WorkflowStatus } from '@/lib/workflows/engine';

export function RunStatus({ status }: { status: WorkflowStatus }) {
  return <span className={`badge ${status.toLowerCase()}`}>{status}</span>;
}

/** "1.2 s", "3 min 4 s", "2 h 5 min". */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
