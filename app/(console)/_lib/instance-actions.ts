'use server';

import { revalidatePath } from 'next/cache';
import { pauseInstance, startInstance, stopInstance } from '@/lib/robots/lifecycle';
import { robotInstanceBodySchema } from '@/lib/robots/schema';
import { createOrResumeRobot } from '@/lib/robots/service';
import { defineAction } from './define-action';
import { apiErrorToForm, type FormState } from './forms';
import { robotFormFields } from './robot-form';
import { bodyFromForm } from './schema-form';
import { requireOwnedSite } from './session';

export type InstanceOperation = 'pause' | 'resume' | 'stop';

/** Pause, resume or stop an instance of the signed-in user's site: the same operations as the robot routes. */
export async function instanceAction(siteId: string, instanceId: string, operation: InstanceOperation, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  try {
    if (operation === 'pause') await pauseInstance(site.id, instanceId);
    else if (operation === 'resume') await startInstance(site.id, instanceId, { label: 'resume' });
    else await stopInstance(site.id, instanceId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(`/console/sites/${site.id}/instances`);
  revalidatePath(`/console/sites/${site.id}/instances/${instanceId}`);
  return {};
}

/** Creates a robot (a new browser instance with its activity planned), as POST /api/robots/instance does. */
export const createRobotAction = defineAction({
  schema: robotInstanceBodySchema,
  input: (form, siteId) => ({ ...bodyFromForm(robotFormFields(), form), site_id: siteId }),
  run: async ({ site, input }) => (await createOrResumeRobot(site.id, input)).instance.id,
  revalidate: () => ['/instances'],
});
