import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SETTINGS_GROUPS, findGroup, groupFields } from '@/app/(console)/_lib/settings-model';
import { Card } from '@/components/kit/card';
import { NavLink } from '@/components/nav-link';
import { toFormValue } from '@/components/schema-form/nodes';
import { can } from '@/lib/members/permissions';
import { getSettings } from '@/lib/settings/service';
import { SettingsForm } from '../settings-form';

export const metadata: Metadata = { title: 'Site settings · Site Growth Platform' };

/**
 * The site's business settings (spec §2.11), one group of fields per page: /settings/<group>.
 * Each group saves only its own fields; the rest of the settings stay as they are.
 */
export default async function SettingsPage({ params }: { params: Promise<{ siteId: string; group?: string[] }> }) {
  const { siteId, group: segments = [] } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const base = `/console/sites/${site.id}/settings`;
  if (segments.length === 0) redirect(`${base}/${SETTINGS_GROUPS[0].id}`);
  const group = segments.length === 1 ? findGroup(segments[0]) : undefined;
  if (!group) notFound();

  const settings = (await getSettings(site.id)) as Record<string, unknown>;
  const fields = groupFields(group);
  const initial = Object.fromEntries(fields.map(({ key, node }) => [key, toFormValue(node, settings[key])]));
  return (
    <div className="settings">
      <nav aria-label="Settings groups" className="subnav">
        <ul>
          {SETTINGS_GROUPS.map((g) => (
            <li key={g.id}>
              <NavLink href={`${base}/${g.id}`}>{g.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Card title={group.label} id="settings">
        {'intro' in group && (
          <p className="intro" data-testid="settings-group-intro">
            {group.intro} People who sign in to this site are managed under <Link href={`/console/sites/${site.id}/members`}>Members</Link>.
          </p>
        )}
        <p className="hint intro">
          Agents read these settings as context. Saving replaces this page’s fields and leaves the other pages’ as they are; agents and integrations
          read and change the same settings through the API (<Link href={`/console/sites/${site.id}/developers`}>Developers</Link>).
        </p>
        {can(role, 'settings.manage') ? (
          <SettingsForm key={group.id} siteId={site.id} group={group.id} fields={fields} initial={initial} />
        ) : (
          // Read only: the member's role does not change settings.
          <dl className="plain-list">
            {fields.map(({ key }) => (
              <div key={key}>
                <dt className="mono">{key}</dt>
                <dd className="wrap">{settings[key] === undefined ? '—' : JSON.stringify(settings[key])}</dd>
              </div>
            ))}
          </dl>
        )}
      </Card>
    </div>
  );
}
