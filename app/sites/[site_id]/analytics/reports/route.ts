import { reportSettings, reportSettingsSchema, saveReportSettings } from '@/lib/analytics/reports';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/analytics/reports — who gets the email reports and the traffic-spike alert, and how often
export const GET = analyticsRoute({
  summary: 'Email report settings',
  response: reportSettingsSchema,
  handler: ({ siteId }) => reportSettings(siteId),
});

// PUT /sites/{site_id}/analytics/reports — set the email reports and the traffic-spike alert
export const PUT = analyticsRoute({
  summary: 'Set email reports and the spike alert',
  description:
    'A weekly (Monday to Sunday) or monthly report of the figures, each against the period before, mailed to the chosen members once the ' +
    "period ended in the site's time zone; and an alert when visitors of the last 5 minutes exceed `spike_threshold` (at most one an hour). " +
    'Recipients must be members of the site (400 otherwise).',
  body: reportSettingsSchema,
  response: reportSettingsSchema,
  handler: ({ siteId, body }) => saveReportSettings(siteId, body),
});
