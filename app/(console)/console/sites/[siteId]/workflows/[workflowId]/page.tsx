import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { Fact } from '@/components/kit/section-facts';
import { Time } from '@/components/time';
import { ApiError } from '@/lib/core/errors';
import { can } from '@/lib/members/permissions';
import { runTypeLabel } from '@/lib/workflows/catalog';
import { getWorkflowRun } from '@/lib/workflows/service';
import { CancelRunButton } from '../cancel-run-button';
import { ReadableJson } from '../readable-json';
import { RunStatus, duration } from '../run-status';

export const metadata: Metadata = { title: 'Workflow run · Site Growth Platform' };

/** One run of the site: the same getWorkflowRun() as GET /api/logs/workflows/{workflowId}. */
export default async function WorkflowRunPage({ params }: { params: Promise<{ siteId: string; workflowId: string }> }) {
  const { siteId, workflowId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const run = await getWorkflowRun(site.id, decodeURIComponent(workflowId)).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  return (
    <>
      <BackLink href={`/console/sites/${site.id}/workflows`} label="All runs" />
      <Card
        title={
          <>
            {runTypeLabel(run.type)} <RunStatus status={run.status} />
          </>
        }
        id="run"
      >
        <p className="sub">
          <span className="mono">{run.type}</span> · <span className="mono">{run.workflowId}</span>
        </p>
        <dl className="stats">
          <Fact label="Started">
            <Time iso={run.startTime} withDate />
          </Fact>
          <Fact label="Closed">{run.closeTime ? <Time iso={run.closeTime} withDate /> : <span className="empty">Still running</span>}</Fact>
          <Fact label="Duration">{duration(run.executionTime)}</Fact>
          <Fact label="Run ID" className="mono sub">
            {run.runId}
          </Fact>
        </dl>
        {run.status === 'RUNNING' && can(role, 'crm.write') && <CancelRunButton siteId={site.id} workflowId={run.workflowId} />}
      </Card>
      {run.failure && (
        <Card title="Failure" id="failure">
          <p data-testid="run-failure">{run.failure.message}</p>
          {run.failure.cause && (
            <>
              <p className="sub">Source: {run.failure.cause.source}</p>
              {run.failure.cause.stackTrace && (
                <details>
                  <summary>Stack trace</summary>
                  <pre className="json">{run.failure.cause.stackTrace}</pre>
                </details>
              )}
            </>
          )}
        </Card>
      )}
      {run.result !== undefined && (
        <Card title="Result" id="result">
          <ReadableJson value={run.result} testId="run-result" />
        </Card>
      )}
      <Card title="Input" id="input">
        <ReadableJson value={run.input} testId="run-input" />
      </Card>
    </>
  );
}
