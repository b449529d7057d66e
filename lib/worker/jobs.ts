import { commandDeadline } from '@/lib/agents/jobs';
import { analyticsReports } from '@/lib/analytics/reports';
import { analyticsRollup } from '@/lib/analytics/rollups';
import { mailboxSync } from '@/lib/email/jobs';
import { databaseMaintenance } from '@/lib/jobs/database-maintenance';
import type { BackgroundJob } from '@/lib/jobs/define';
import { leadImportJob } from '@/lib/leads/import';
import { robotExpiry } from '@/lib/robots/jobs';
import { sequenceEnrollmentJob, sequenceStep } from '@/lib/sequences/jobs';
import { sessionSweep } from '@/lib/visitors/jobs';
import { deliverWebhook } from '@/lib/webhooks/jobs';
import type { Activities } from '@/lib/workflows/activities';
import { workflowDefinitions } from '@/lib/workflows/definitions';
import { workflowRunJob } from '@/lib/workflows/engines/embedded/run-job';
import { retention } from './retention';

/**
 * Every background job of the product, as the worker runs them. A new job is its definition
 * (`defineJob` / `defineSchedule` / `defineSiteSchedule`, next to the code it serves) and one
 * line here.
 *
 * Workflow runs are jobs of the embedded engine; on Temporal the cluster runs them (a Temporal
 * worker beside these queues), while every other job stays on these queues — they are born in
 * the app database's transactions and touch only that database.
 */
export function backgroundJobs(o: {
  activities: Activities;
  embeddedRuns: boolean;
  /** On Temporal: starts or wakes an enrollment's workflow (the `sequence-enrollment` job). */
  wakeEnrollment?: (siteId: string, enrollmentId: string) => Promise<void>;
}): BackgroundJob[] {
  return [
    deliverWebhook,
    // Also on Temporal: a step job queued before the engine changed still sends its step (once), and the workflow goes on.
    sequenceStep,
    ...(o.wakeEnrollment ? [sequenceEnrollmentJob(o.wakeEnrollment)] : []),
    leadImportJob,
    robotExpiry,
    commandDeadline,
    retention,
    mailboxSync,
    sessionSweep,
    databaseMaintenance,
    analyticsRollup,
    analyticsReports,
    ...(o.embeddedRuns ? [workflowRunJob({ definitions: workflowDefinitions, activities: o.activities })] : []),
  ];
}
