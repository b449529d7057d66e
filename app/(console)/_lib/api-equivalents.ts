/**
 * The API calls that do what each console page does, for the Developers area's "API for each
 * page" (the owner's cards carry no API hints). Keys are section paths of site-sections.ts; every
 * call is `METHOD path` of a route in lib/http/route-table.json (a unit test checks both).
 */
export const API_EQUIVALENTS: { section: string; calls: { call: string; does: string }[] }[] = [
  {
    section: '',
    calls: [
      { call: 'GET /sites/{site_id}/analytics/overview', does: 'Figures and the traffic per day' },
      { call: 'GET /sites/{site_id}/analytics/breakdown/{dimension}', does: 'Top pages, sources, countries, devices, clicks' },
      { call: 'GET /sites/{site_id}/stats', does: 'Totals of the site' },
    ],
  },
  {
    section: '/goals',
    calls: [
      { call: 'GET /sites/{site_id}/goals', does: 'The goals conversions count against' },
      { call: 'POST /sites/{site_id}/goals', does: 'Add a goal (an event, a conversion or a page pattern)' },
      { call: 'PATCH /sites/{site_id}/goals/{goal_id}', does: 'Change a goal' },
      { call: 'DELETE /sites/{site_id}/goals/{goal_id}', does: 'Delete a goal' },
      { call: 'GET /sites/{site_id}/analytics/realtime', does: 'Visitors now, the last 30 minutes' },
    ],
  },
  {
    section: '/annotations',
    calls: [
      { call: 'GET /sites/{site_id}/annotations', does: 'Notes on days of the charts' },
      { call: 'POST /sites/{site_id}/annotations', does: 'Add a note' },
      { call: 'PATCH /sites/{site_id}/annotations/{annotation_id}', does: 'Change a note' },
      { call: 'DELETE /sites/{site_id}/annotations/{annotation_id}', does: 'Delete a note' },
    ],
  },
  {
    section: '/sharing',
    calls: [
      { call: 'GET /sites/{site_id}/shared-links', does: 'List shared dashboard links' },
      { call: 'POST /sites/{site_id}/shared-links', does: 'Make a link (its URL answered once)' },
      { call: 'DELETE /sites/{site_id}/shared-links/{link_id}', does: 'Revoke a link' },
    ],
  },
  {
    section: '/reports',
    calls: [
      { call: 'GET /sites/{site_id}/analytics/reports', does: 'Who gets the reports and the spike alert' },
      { call: 'PUT /sites/{site_id}/analytics/reports', does: 'Set them' },
    ],
  },
  {
    section: '/sessions',
    calls: [
      { call: 'GET /api/visitors/{visitor_id}/sessions', does: 'A visitor’s sessions' },
      { call: 'GET /api/visitors/session', does: 'One session with its events' },
    ],
  },
  {
    section: '/leads',
    calls: [
      { call: 'POST /api/agents/tools/leads/get', does: 'Search and filter leads' },
      { call: 'POST /api/agents/tools/leads/create', does: 'Add a lead' },
      { call: 'POST /api/agents/tools/leads/update', does: 'Change a lead’s status or details' },
      { call: 'GET /api/leads/{lead_id}/sessions', does: 'A lead’s visits' },
      { call: 'GET /api/leads/{lead_id}/timeline', does: 'A lead’s visits, emails, notes and changes in one list' },
      { call: 'POST /api/leads/{lead_id}/notes', does: 'Write a note on a lead' },
      { call: 'POST /api/leads/{lead_id}/merge', does: 'Merge two leads of one person' },
      { call: 'POST /api/leads/import', does: 'Import leads from a CSV file' },
      { call: 'GET /api/leads/export', does: 'Export the leads as CSV' },
      { call: 'GET /api/leads/properties', does: 'The site’s custom lead properties' },
      { call: 'GET /api/leads/{lead_id}/export', does: 'Everything about a person, as JSON' },
      { call: 'DELETE /api/leads/{lead_id}', does: 'Erase a person (erase=true; signed-in owner or admin)' },
    ],
  },
  {
    section: '/segments',
    calls: [
      { call: 'POST /api/agents/tools/segments/get', does: 'List segments' },
      { call: 'POST /api/agents/tools/segments/create', does: 'Create a segment' },
      { call: 'POST /api/agents/tools/segments/update', does: 'Change a segment' },
    ],
  },
  {
    section: '/conversations',
    calls: [
      { call: 'GET /api/agents/conversations', does: 'List conversations' },
      { call: 'GET /api/agents/conversations/{conversation_id}', does: 'One conversation with its messages' },
      { call: 'POST /api/sites/{site_id}/conversations/{conversation_id}/messages', does: 'Reply in a conversation' },
      { call: 'POST /api/agents/sales/message', does: 'Message an agent (also cmo, customerSupport)' },
    ],
  },
  {
    section: '/sequences',
    calls: [
      { call: 'GET /api/sequences', does: 'List sequences with their figures' },
      { call: 'POST /api/sequences', does: 'Create a sequence' },
      { call: 'GET /api/sequences/{id}', does: 'One sequence: figures per step, A/B split, enrollments' },
      { call: 'PATCH /api/sequences/{id}', does: 'Pause, resume, or edit the steps not sent yet' },
      { call: 'POST /api/sequences/{id}/enrollments', does: 'Enroll leads or a segment' },
      { call: 'DELETE /api/sequences/{id}/enrollments/{lead_id}', does: 'Unenroll a lead' },
    ],
  },
  {
    section: '/workflows',
    calls: [
      { call: 'POST /api/workflow/{name}', does: 'Start a workflow of the catalog' },
      { call: 'GET /api/logs/workflows', does: 'List runs' },
      { call: 'GET /api/logs/workflows/{workflowId}', does: 'One run with its input and result' },
      { call: 'POST /api/logs/workflows/{workflowId}/cancel', does: 'Cancel a running run' },
    ],
  },
  {
    section: '/commands',
    calls: [
      { call: 'GET /sites/{site_id}/commands', does: 'List commands' },
      { call: 'POST /sites/{site_id}/commands', does: 'Give the CMO agent a task' },
      { call: 'POST /sites/{site_id}/commands/{command_id}/cancel', does: 'Cancel a command' },
    ],
  },
  {
    section: '/email',
    calls: [
      { call: 'GET /api/sites/{site_id}/emails', does: 'The outbox and received messages' },
      { call: 'GET /api/sites/{site_id}/email-recipients', does: 'Test recipients' },
      { call: 'GET /api/sites/{site_id}/email-suppressions', does: 'Addresses that unsubscribed or bounced' },
    ],
  },
  {
    section: '/finder',
    calls: [
      { call: 'GET /api/finder/credits', does: 'Credits and their ledger' },
      { call: 'POST /api/finder/person_role_search/createQuery', does: 'Create a role query' },
    ],
  },
  {
    section: '/instances',
    calls: [
      { call: 'POST /api/robots/instance', does: 'Create a robot' },
      { call: 'GET /api/instances', does: 'List instances' },
      { call: 'POST /api/robots/instance/stop', does: 'Stop (also pause, resume)' },
    ],
  },
  {
    section: '/settings',
    calls: [{ call: 'POST /api/agents/tools/updateSiteSettings', does: 'Read and change the business settings' }],
  },
  {
    section: '/general',
    calls: [
      { call: 'PATCH /api/sites/{site_id}', does: 'Rename the site or change its domain' },
      { call: 'DELETE /api/sites/{site_id}', does: 'Delete the site' },
    ],
  },
  {
    section: '/members',
    calls: [
      { call: 'GET /api/sites/{site_id}/members', does: 'Members and invitations' },
      { call: 'POST /api/sites/{site_id}/members', does: 'Invite someone' },
    ],
  },
  {
    section: '/keys',
    calls: [
      { call: 'POST /api/keys', does: 'Create a key' },
      { call: 'DELETE /api/keys', does: 'Revoke a key' },
      { call: 'GET /api/keys/{id}/usage', does: 'A key’s usage' },
    ],
  },
  {
    section: '/snippet',
    calls: [
      { call: 'GET /t.js', does: 'The tracking tag' },
      { call: 'POST /api/visitors/session', does: 'Start a visit (what the tag does first)' },
      { call: 'POST /api/visitors/track', does: 'Record an event of a visit' },
      { call: 'POST /api/visitors/identify', does: 'Tie a visit to a lead by email' },
    ],
  },
  {
    section: '/origins',
    calls: [
      { call: 'GET /api/sites/{site_id}/origins', does: 'Allowed origins' },
      { call: 'POST /api/sites/{site_id}/origins', does: 'Allow an origin' },
    ],
  },
  {
    section: '/webhooks',
    calls: [
      { call: 'POST /api/webhooks', does: 'Add an endpoint' },
      { call: 'POST /api/webhooks/{id}/ping', does: 'Send a ping' },
      { call: 'GET /api/webhooks/deliveries', does: 'Deliveries' },
    ],
  },
  {
    section: '/platform',
    calls: [
      { call: 'POST /api/sites/{site_id}/platform-apps', does: 'Create an app' },
      { call: 'POST /api/sites/{site_id}/platform-keys', does: 'Create a platform key' },
      { call: 'GET /api/sites/{site_id}/platform-audit', does: 'The audit of platform calls' },
    ],
  },
  {
    section: '/secrets',
    calls: [
      { call: 'GET /api/secure-tokens', does: 'List secrets' },
      { call: 'POST /api/secure-tokens/{id}/decrypt', does: 'Read a secret (recorded in the audit)' },
    ],
  },
];
