import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { changeEventBodySchema, ChangeEventResultSchema } from '@/lib/webhooks/schema';
import { receiveChangeEvent } from '@/lib/workflows/change-events';

// POST /api/workflow/webhook — receive a database change event (Supabase database-webhook shape) and start the subscribed workflows
export const POST = defineRoute({
  summary: 'Receive a database change event',
  fastPath: 'servers send change events at their own rate',
  description:
    'Body: `{type: INSERT|UPDATE|DELETE, table, schema, record, old_record}` (all optional, spec §6). The event is recorded by a run of ' +
    'the `webhook` workflow; each active subscription of the site for that table and type (POST /api/event-subscriptions) starts its ' +
    'workflow. A record whose `site_id` is another site is refused (403); a table nobody subscribes to dispatches nothing.',
  tags: ['Workflows'],
  auth: policies.keyWrite,
  body: changeEventBodySchema,
  response: ChangeEventResultSchema,
  envelope: 'bare',
  status: 202,
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', codeAtTopLevel: true },
  errors: ['INVALID_SITE_ID', 'INVALID_REQUEST', 'FORBIDDEN', 'RATE_LIMITED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: ({ siteId, body }) => receiveChangeEvent(siteId, body),
});
