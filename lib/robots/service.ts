import { agentModel } from '@/lib/providers/llm';
import { siteOwner } from '@/lib/sites/service';
import type { RobotCommand } from '@/lib/workflows/activities';
import { startWorkflow } from '@/lib/workflows/service';
import { actOnInstance } from './act';
import { insertPlan, toPlan } from './instance-plans-repo';
import { assertSiteUser } from './instances';
import { insertInstance, toInstance, updateInstanceRow, type InstanceRow } from './instances-repo';
import { deleteInstance, loadInstance, pauseInstance, startInstance, stopInstance } from './lifecycle';
import type { AssistantBody, RobotInstanceBody } from './schema';

/** The robot routes and the robot workflows (startRobot, stopRobot, promptRobot) over one set of operations. */

const nameOf = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

async function ownerOf(siteId: string, userId?: string): Promise<string> {
  if (userId) {
    await assertSiteUser(siteId, userId);
    return userId;
  }
  return siteOwner(siteId);
}

async function newInstance(siteId: string, o: { text: string; userId?: string; activity?: string }): Promise<InstanceRow> {
  return insertInstance(siteId, {
    userId: await ownerOf(siteId, o.userId),
    name: nameOf(o.text),
    instanceType: 'browser',
    status: 'uninstantiated',
    activity: o.activity ?? null,
  });
}

/**
 * POST /api/robots/instance: a new instance (or the given one, resumed unless it runs) with its
 * browser started, and a plan for the activity. A new instance whose browser cannot start is
 * not kept.
 */
export async function createOrResumeRobot(siteId: string, body: RobotInstanceBody & { user_id?: string }) {
  let row: InstanceRow;
  let created = false;
  if (body.instance_id) {
    row = await loadInstance(siteId, body.instance_id);
    if (row.status !== 'running') row = await startInstance(siteId, row.id, { timeoutHours: body.timeout_hours, label: 'resume' });
  } else {
    const fresh = await newInstance(siteId, { text: body.activity, userId: body.user_id, activity: body.activity });
    try {
      row = await startInstance(siteId, fresh.id, { timeoutHours: body.timeout_hours });
    } catch (error) {
      await deleteInstance(siteId, fresh.id).catch(() => undefined);
      throw error;
    }
    created = true;
  }
  await updateInstanceRow(siteId, row.id, { activity: body.activity });
  const plan = await insertPlan(siteId, row.id, {
    title: body.activity.slice(0, 200),
    planType: 'task',
    status: 'pending',
    instructions: body.activity,
  });
  return { instance: toInstance(await loadInstance(siteId, row.id)), plan: toPlan(plan), created };
}

/** POST /api/robots/instance/pause: the browser's state saved, the browser closed. */
export const pauseRobot = async (siteId: string, id: string) => ({ instance: toInstance(await pauseInstance(siteId, id)) });

/** POST /api/robots/instance/resume: a paused or stopped instance started again. */
export const resumeRobot = async (siteId: string, id: string, timeoutHours?: number) => ({
  instance: toInstance(await startInstance(siteId, id, { timeoutHours, label: 'resume' })),
});

/** POST /api/robots/instance/stop: the browser closed, its saved state dropped. */
export const stopRobot = async (siteId: string, id: string) => ({ instance: toInstance(await stopInstance(siteId, id)) });

/**
 * POST /api/robots/instance/assistant: a promptRobot run on the instance (an uninstantiated one
 * is created when none is named). Needs a model (503 MODEL_NOT_CONFIGURED, checked before anything is created).
 */
export async function startAssistant(siteId: string, body: AssistantBody): Promise<{ workflowId: string; runId: string; instanceId: string }> {
  const existing = body.instance_id ? await loadInstance(siteId, body.instance_id) : undefined;
  if (existing && body.user_id) await assertSiteUser(siteId, body.user_id);
  agentModel();
  const row = existing ?? (await newInstance(siteId, { text: body.message, userId: body.user_id }));
  const run = await startWorkflow(
    siteId,
    'promptRobot',
    {
      site_id: siteId,
      instance_id: row.id,
      prompt: body.message,
      ...(body.system_prompt ? { system_prompt: body.system_prompt } : {}),
      ...(body.tools ? { tools: body.tools } : {}),
    },
    null,
  );
  return { workflowId: run.workflowId, runId: run.runId, instanceId: row.id };
}

export async function runRobotCommand(siteId: string, command: RobotCommand): Promise<Record<string, unknown>> {
  if (command.action === 'start') {
    const { instance, plan } = await createOrResumeRobot(siteId, { site_id: siteId, activity: command.activity });
    return { instance_id: instance.id, status: instance.status, plan_id: plan.id };
  }
  if (command.action === 'stop') {
    const instance = await stopInstance(siteId, command.instance_id);
    return { instance_id: instance.id, status: instance.status };
  }
  const row = await loadInstance(siteId, command.instance_id);
  if (row.status !== 'running') await startInstance(siteId, row.id, { label: 'resume' });
  const result = await actOnInstance(
    siteId,
    { instance_id: row.id, message: command.prompt },
    { systemPrompt: command.system_prompt, tools: command.tools },
  );
  return {
    instance_id: row.id,
    status: result.instance.status,
    plan_id: result.plan.id,
    plan_status: result.plan.status,
    url: result.instance.current_url,
    steps: result.executed.map((s) => ({ description: s.description, status: s.status, output: s.output, error: s.error })),
  };
}
