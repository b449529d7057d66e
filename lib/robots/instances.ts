import { ApiError } from '@/lib/core/errors';
import { isSiteMember } from '@/lib/members/service';
import { fileStorage } from '@/lib/providers/storage';
import { sealEnvVars } from './instance-env-vars';
import { findLog, insertLog, listLogs, toLog } from './instance-logs-repo';
import { insertPlan, listPlans, toPlan } from './instance-plans-repo';
import type {
  CreateInstanceInput,
  CreateLogInput,
  CreatePlanInput,
  Instance,
  InstanceLog,
  InstancePlan,
  UpdateInstanceInput,
} from './instance-schema';
import { BUSY_STATUSES, OPERATION_FOR_STATUS } from './instance-states';
import { findInstance, insertInstance, toInstance, updateInstanceRow } from './instances-repo';
import { deleteInstance, loadInstance, pauseInstance, startInstance, stopInstance } from './lifecycle';

/** The instances routes (spec §2.8–2.9): records, logs and plans, with status changes going through the robot operations (./lifecycle.ts). */

/** `user_id` must name a member of the site (403 otherwise; who else exists is not revealed). */
export async function assertSiteUser(siteId: string, userId: string): Promise<void> {
  if (!(await isSiteMember(siteId, userId))) throw new ApiError('FORBIDDEN', 'user_id is not a member of this site');
}

export async function createInstance(siteId: string, input: CreateInstanceInput): Promise<Instance> {
  await assertSiteUser(siteId, input.user_id);
  const row = await insertInstance(siteId, {
    userId: input.user_id,
    name: input.name,
    instanceType: input.instance_type,
    status: input.status,
    agentId: input.agent_id ?? null,
    configuration: input.configuration ?? {},
    environmentVariablesSealed: sealEnvVars(input.environment_variables ?? {}),
  });
  return toInstance(row);
}

export const getInstance = async (siteId: string, id: string): Promise<Instance> => toInstance(await loadInstance(siteId, id));

/**
 * Changes the given fields. `status` is reached through its operation (running → start/resume,
 * paused → pause, stopped → stop); the status it already has is no change; any other is 409.
 */
export async function updateInstance(siteId: string, id: string, input: UpdateInstanceInput): Promise<Instance> {
  const row = await loadInstance(siteId, id);
  const { status, site_id: _site, ...fields } = input;
  const operation = status && status !== row.status ? OPERATION_FOR_STATUS[status] : undefined;
  if (status && status !== row.status && !operation) {
    throw new ApiError('CONFLICT', `An instance cannot be set to ${status}; use running, paused or stopped`, { status: row.status });
  }
  // The operation first: when it is refused (409, 429, 503) nothing of the request is written.
  if (operation === 'start') await startInstance(siteId, id, { label: 'resume' });
  if (operation === 'pause') await pauseInstance(siteId, id);
  if (operation === 'stop') await stopInstance(siteId, id);
  if (Object.keys(fields).length > 0) {
    const current = operation ? await loadInstance(siteId, id) : row;
    if (BUSY_STATUSES.includes(current.status))
      throw new ApiError('CONFLICT', `The instance is ${current.status}; try again when it has finished`, { status: current.status });
    await updateInstanceRow(siteId, id, {
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.agent_id !== undefined ? { agentId: fields.agent_id } : {}),
      ...(fields.configuration !== undefined ? { configuration: fields.configuration } : {}),
      ...(fields.environment_variables !== undefined ? { environmentVariablesSealed: sealEnvVars(fields.environment_variables) } : {}),
    });
  }
  return getInstance(siteId, id);
}

export const removeInstance = (siteId: string, id: string): Promise<void> => deleteInstance(siteId, id);

/** A page of the instance's log (404 for an instance of another site). */
export async function instanceLogs(siteId: string, id: string, q: Parameters<typeof listLogs>[2]) {
  await loadInstance(siteId, id);
  return listLogs(siteId, id, q);
}

/** A page of the instance's plans (404 for an instance of another site). */
export async function instancePlans(siteId: string, id: string, q: Parameters<typeof listPlans>[2]) {
  await loadInstance(siteId, id);
  return listPlans(siteId, id, q);
}

/** The site's instance as the API answers it, or undefined (also for one of another site). */
export const findSiteInstance = async (siteId: string, id: string): Promise<Instance | undefined> => {
  const row = await findInstance(siteId, id);
  return row ? toInstance(row) : undefined;
};

export { listInstances } from './instances-repo';

export async function addLog(siteId: string, id: string, input: CreateLogInput): Promise<InstanceLog> {
  await loadInstance(siteId, id);
  return toLog(await insertLog(siteId, id, { logType: input.log_type, level: input.level, message: input.message, details: input.details ?? {} }));
}

export async function addPlan(siteId: string, id: string, input: CreatePlanInput): Promise<InstancePlan> {
  await loadInstance(siteId, id);
  const row = await insertPlan(siteId, id, {
    title: input.title,
    description: input.description ?? null,
    planType: input.plan_type,
    status: input.status,
    priority: input.priority,
    instructions: input.instructions ?? null,
  });
  return toPlan(row);
}

/** The PNG of a log entry's screenshot, or of the instance's latest; 404 when there is none. */
export async function screenshotOf(siteId: string, id: string, logId?: string): Promise<Uint8Array> {
  const row = await loadInstance(siteId, id);
  const key = logId ? (await findLog(siteId, id, logId))?.screenshotKey : row.screenshotKey;
  const bytes = key ? await fileStorage().get(key) : undefined;
  if (!bytes) throw new ApiError('NOT_FOUND', 'Screenshot not found');
  return bytes;
}
