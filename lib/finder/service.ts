import { startWorkflow } from '@/lib/workflows/service';
import { creditAccount, recentLedger } from './credits-repo';
import { FINDER_PRICES } from './pricing';
import { upsertRoleQuery } from './repo';
import type { CreateQueryBody } from './schema';

/**
 * Saves the site's role query (deduplicated by its normalised query), links the segment, and
 * starts an idealClientProfileMining run for it. Calling it again with the same query updates
 * the query and starts a run that continues where the last one stopped.
 */
export async function createRoleQuery(siteId: string, body: CreateQueryBody) {
  const { roleQuery, created } = await upsertRoleQuery(siteId, {
    name: body.name,
    query: body.query,
    total_targets: body.total_targets,
    ...(body.segment_id ? { segment_id: body.segment_id } : {}),
  });
  const run = await startWorkflow(siteId, 'idealClientProfileMining', { site_id: siteId, role_query_id: roleQuery.id }, null);
  return {
    role_query: { ...roleQuery, last_workflow_id: run.workflowId },
    created,
    run_ids: [run.workflowId],
    runs: [{ workflowId: run.workflowId, runId: run.runId }],
  };
}

export async function creditsOverview(siteId: string, limit: number) {
  const [account, ledger] = await Promise.all([creditAccount(siteId), recentLedger(siteId, limit)]);
  const cap = account.effective_monthly_cap;
  return {
    balance: account.balance,
    monthly_cap: cap,
    month: account.month,
    spent_this_month: account.spent_this_month,
    remaining_this_month: cap === null ? account.balance : Math.max(0, Math.min(account.balance, cap - account.spent_this_month)),
    prices: { ...FINDER_PRICES },
    ledger,
  };
}

export { findRoleQuery, listRoleQueries, recordRoleQueryProgress, saveMinedPerson, unseenPeople } from './repo';
