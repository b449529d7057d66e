'use server';

import { z } from 'zod';
import { bodyFromForm } from '@/components/schema-form/fields';
import { uuidSchema } from '@/lib/core/schemas';
import { pauseInstance, startInstance, stopInstance } from '@/lib/robots/lifecycle';
import { robotInstanceBodySchema } from '@/lib/robots/schema';
import { createOrResumeRobot } from '@/lib/robots/service';
import { defineAction } from './define-action';
import { robotFormFields } from './robot-form';

const OPERATIONS = ['pause', 'resume', 'stop'] as const;
export type InstanceOperation = (typeof OPERATIONS)[number];

/** Pause, resume or stop an instance of the signed-in user's site: the same operations as the robot routes. */
export const instanceAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ instance_id: uuidSchema, operation: z.enum(OPERATIONS) }),
  run: async ({ site, input: { instance_id: id, operation } }) => {
    if (operation === 'pause') await pauseInstance(site.id, id);
    else if (operation === 'resume') await startInstance(site.id, id, { label: 'resume' });
    else await stopInstance(site.id, id);
  },
  revalidate: (input) => ['/instances', `/instances/${input.instance_id}`],
});

/** Creates a robot (a new browser instance with its activity planned), as POST /api/robots/instance does. */
export const createRobotAction = defineAction({
  permission: 'crm.write',
  schema: robotInstanceBodySchema,
  input: (form, siteId) => ({ ...bodyFromForm(robotFormFields(), form), site_id: siteId }),
  run: async ({ site, input }) => (await createOrResumeRobot(site.id, input)).instance.id,
  revalidate: () => ['/instances'],
});
