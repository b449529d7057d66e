import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { reportSettings } from '@/lib/analytics/reports';
import { can } from '@/lib/members/permissions';
import { teamOf } from '@/lib/members/service';
import { ReportSettingsForm } from './report-form';

export const metadata: Metadata = { title: 'Email reports · Site Growth Platform' };

export default async function ReportsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const [settings, { members }] = await Promise.all([reportSettings(site.id), teamOf(site.id)]);
  return (
    <Card title="Email reports and alerts" id="reports">
      <p>
        A weekly (Monday to Sunday) or monthly summary of the Overview&apos;s figures, each against the period before, mailed once the period has
        ended in the site&apos;s time zone — and an alert when more visitors than you choose are on the site within 5 minutes (one an hour at most).
      </p>
      <ReportSettingsForm
        siteId={site.id}
        settings={settings}
        members={members.map((m) => ({ id: m.user_id, label: m.name ? `${m.name} (${m.email})` : m.email }))}
        disabled={!can(role, 'settings.manage')}
      />
    </Card>
  );
}
