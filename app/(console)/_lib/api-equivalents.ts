/**
 * The API calls that do what each console page does, for the Developers area's "API for each
 * page" (the owner's cards carry no API hints). Keys are section paths of site-sections.ts; each
 * call is `METHOD path` of a route in lib/http/route-table.json (a unit test checks both), with
 * what it does.
 */
const CALLS_BY_SECTION: Record<string, Record<string, string>> = {
  '': {
    'GET /sites/{site_id}/analytics/overview': 'Figures and the traffic per day',
    'GET /sites/{site_id}/analytics/breakdown/{dimension}': 'Top pages, sources, countries, devices, clicks',
    'GET /sites/{site_id}/stats': 'Totals of the site',
  },
  '/goals': {
    'GET /sites/{site_id}/goals': 'The goals conversions count against',
    'POST /sites/{site_id}/goals': 'Add a goal (an event, a conversion or a page pattern)',
    'PATCH /sites/{site_id}/goals/{goal_id}': 'Change a goal',
    'DELETE /sites/{site_id}/goals/{goal_id}': 'Delete a goal',
    'GET /sites/{site_id}/analytics/realtime': 'Visitors now, the last 30 minutes',
  },
  '/properties': {
    'GET /api/leads/properties': 'The site’s custom lead properties',
    'POST /api/leads/properties': 'Define a property (text, number, date or choice)',
    'PATCH /api/leads/properties/{property_id}': 'Rename a property, change its options or order',
    'DELETE /api/leads/properties/{property_id}': 'Delete a property and its value on every lead',
  },
  '/annotations': {
    'GET /sites/{site_id}/annotations': 'Notes on days of the charts',
    'POST /sites/{site_id}/annotations': 'Add a note',
    'PATCH /sites/{site_id}/annotations/{annotation_id}': 'Change a note',
    'DELETE /sites/{site_id}/annotations/{annotation_id}': 'Delete a note',
  },
  '/sharing': {
    'GET /sites/{site_id}/shared-links': 'List shared dashboard links',
    'POST /sites/{site_id}/shared-links': 'Make a link (its URL answered once)',
    'DELETE /sites/{site_id}/shared-links/{link_id}': 'Revoke a link',
  },
  '/reports': {
    'GET /sites/{site_id}/analytics/reports': 'Who gets the reports and the spike alert',
    'PUT /sites/{site_id}/analytics/reports': 'Set them',
  },
  '/sessions': {
    'GET /api/visitors/{visitor_id}/sessions': 'A visitor’s sessions',
    'GET /api/visitors/session': 'One session with its events',
  },
  '/leads': {
    'POST /api/agents/tools/leads/get': 'Search and filter leads',
    'POST /api/agents/tools/leads/create': 'Add a lead',
    'POST /api/agents/tools/leads/update': 'Change a lead’s status or details',
    'GET /api/leads/{lead_id}/sessions': 'A lead’s visits',
    'GET /api/leads/{lead_id}/timeline': 'A lead’s visits, emails, notes and changes in one list',
    'POST /api/leads/{lead_id}/notes': 'Write a note on a lead',
    'POST /api/leads/{lead_id}/merge': 'Merge two leads of one person',
    'POST /api/leads/import': 'Import leads from a CSV file',
    'GET /api/leads/export': 'Export the leads as CSV',
    'GET /api/leads/{lead_id}/export': 'Everything about a person, as JSON',
    'DELETE /api/leads/{lead_id}': 'Erase a person (erase=true; signed-in owner or admin)',
  },
  '/segments': {
    'POST /api/agents/tools/segments/get': 'List segments',
    'POST /api/agents/tools/segments/create': 'Create a segment',
    'POST /api/agents/tools/segments/update': 'Change a segment',
  },
  '/conversations': {
    'GET /api/agents/conversations': 'List conversations',
    'GET /api/agents/conversations/{conversation_id}': 'One conversation with its messages',
    'POST /api/sites/{site_id}/conversations/{conversation_id}/messages': 'Reply in a conversation',
    'POST /api/agents/sales/message': 'Message an agent (also cmo, customerSupport)',
  },
  '/sequences': {
    'GET /api/sequences': 'List sequences with their figures',
    'POST /api/sequences': 'Create a sequence',
    'GET /api/sequences/{id}': 'One sequence: figures per step, A/B split, enrollments',
    'PATCH /api/sequences/{id}': 'Pause, resume, or edit the steps not sent yet',
    'POST /api/sequences/{id}/enrollments': 'Enroll leads or a segment',
    'DELETE /api/sequences/{id}/enrollments/{lead_id}': 'Unenroll a lead',
    'POST /api/sequences/{id}/enrollments/{lead_id}/approve': 'Approve an agent’s draft, as written or edited',
  },
  '/workflows': {
    'POST /api/workflow/{name}': 'Start a workflow of the catalog',
    'GET /api/logs/workflows': 'List runs',
    'GET /api/logs/workflows/{workflowId}': 'One run with its input and result',
    'POST /api/logs/workflows/{workflowId}/cancel': 'Cancel a running run',
  },
  '/commands': {
    'GET /sites/{site_id}/commands': 'List commands',
    'POST /sites/{site_id}/commands': 'Give the CMO agent a task',
    'POST /sites/{site_id}/commands/{command_id}/cancel': 'Cancel a command',
  },
  '/email': {
    'GET /api/sites/{site_id}/emails': 'The outbox and received messages',
    'GET /api/sites/{site_id}/email-recipients': 'Test recipients',
    'GET /api/sites/{site_id}/email-suppressions': 'Addresses that unsubscribed or bounced',
  },
  '/finder': {
    'GET /api/finder/credits': 'Credits and their ledger',
    'POST /api/finder/person_role_search/createQuery': 'Create a role query',
  },
  '/instances': {
    'POST /api/robots/instance': 'Create a robot',
    'GET /api/instances': 'List instances',
    'POST /api/robots/instance/stop': 'Stop (also pause, resume)',
  },
  '/settings': {
    'POST /api/agents/tools/updateSiteSettings': 'Read and change the business settings',
  },
  '/general': {
    'PATCH /api/sites/{site_id}': 'Rename the site or change its domain',
    'DELETE /api/sites/{site_id}': 'Delete the site',
  },
  '/members': {
    'GET /api/sites/{site_id}/members': 'Members and invitations',
    'POST /api/sites/{site_id}/members': 'Invite someone',
  },
  '/keys': {
    'POST /api/keys': 'Create a key',
    'DELETE /api/keys': 'Revoke a key',
    'GET /api/keys/{id}/usage': 'A key’s usage',
  },
  '/snippet': {
    'GET /t.js': 'The tracking tag',
    'POST /api/visitors/session': 'Start a visit (what the tag does first)',
    'POST /api/visitors/track': 'Record an event of a visit',
    'POST /api/visitors/identify': 'Tie a visit to a lead by email',
  },
  '/origins': {
    'GET /api/sites/{site_id}/origins': 'Allowed origins',
    'POST /api/sites/{site_id}/origins': 'Allow an origin',
  },
  '/webhooks': {
    'POST /api/webhooks': 'Add an endpoint',
    'POST /api/webhooks/{id}/ping': 'Send a ping',
    'GET /api/webhooks/deliveries': 'Deliveries',
  },
  '/platform': {
    'POST /api/sites/{site_id}/platform-apps': 'Create an app',
    'POST /api/sites/{site_id}/platform-keys': 'Create a platform key',
    'GET /api/sites/{site_id}/platform-audit': 'The audit of platform calls',
  },
  '/secrets': {
    'GET /api/secure-tokens': 'List secrets',
    'POST /api/secure-tokens/{id}/decrypt': 'Read a secret (recorded in the audit)',
  },
};

export interface ApiEquivalent {
  section: string;
  calls: { call: string; does: string }[];
}

export const API_EQUIVALENTS: ApiEquivalent[] = Object.entries(CALLS_BY_SECTION).map(([section, calls]) => ({
  section,
  calls: Object.entries(calls).map(([call, does]) => ({ call, does })),
}));
