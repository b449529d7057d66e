import { schemaFields } from '@/components/schema-form/fields';
import { robotInstanceBodySchema } from '@/lib/robots/schema';

/** The fields of the "create a robot" form: the body of POST /api/robots/instance for a new instance. */
export const robotFormFields = () => schemaFields(robotInstanceBodySchema, ['site_id', 'instance_id']);
