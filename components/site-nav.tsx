import { SITE_SECTION_GROUPS } from '@/components/site-sections';
import { can, type SiteRole } from '@/lib/members/permissions';
import { NavLink } from './nav-link';
import { SiteMenu, type MenuEntry } from './site-menu';

/**
 * Every section of a site, in its groups: the shop's daily work first, then the Developers area
 * apart below it. A sidebar on wide screens; behind a "Menu" button above the page on phones
 * (console.css). The current section is marked `aria-current`. Sections the member's role may
 * not use are left out.
 */
export function SiteNav({ siteId, role }: { siteId: string; role: SiteRole }) {
  const base = `/console/sites/${siteId}`;
  const groups = SITE_SECTION_GROUPS.map((group) => ({
    ...group,
    id: `nav-${group.label.toLowerCase().replace(/\W+/g, '-')}`,
    entries: group.sections
      .filter((section) => !section.permission || can(role, section.permission))
      .map((s): MenuEntry => ({ href: base + s.path, label: s.label, nested: s.nested ?? false })),
  })).filter((group) => group.entries.length > 0);
  const links = (entries: MenuEntry[]) => (
    <ul>
      {entries.map(({ href, label, nested }) => (
        <li key={href}>
          <NavLink href={href} exact={!nested}>
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
  return (
    <SiteMenu entries={groups.flatMap((g) => g.entries)}>
      <nav aria-label="Site sections" className="site-nav">
        {groups.map((group) => (
          <div key={group.id} className={`nav-group nav-${group.area}`} role="group" aria-labelledby={group.id}>
            <p className="nav-group-label" id={group.id}>
              {group.label}
            </p>
            {links(group.entries)}
          </div>
        ))}
      </nav>
    </SiteMenu>
  );
}
