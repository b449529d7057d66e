import { SITE_SECTION_GROUPS } from '@/app/(console)/_lib/site-sections';
import { can, type SiteRole } from '@/lib/members/permissions';
import { NavLink } from './nav-link';

/**
 * Every section of a site, in its groups: a sidebar on wide screens, a compact grouped menu above
 * the page on phones (console.css); the current section is marked `aria-current`. Sections the
 * member's role may not use are left out.
 */
export function SiteNav({ siteId, role }: { siteId: string; role: SiteRole }) {
  const base = `/console/sites/${siteId}`;
  return (
    <nav aria-label="Site sections" className="site-nav">
      {SITE_SECTION_GROUPS.map((group) => (
        <div key={group.label} className="nav-group" role="group" aria-labelledby={`nav-${group.label}`}>
          <p className="nav-group-label" id={`nav-${group.label}`}>
            {group.label}
          </p>
          <ul>
            {group.sections
              .filter((section) => !section.permission || can(role, section.permission))
              .map(({ path, label, nested }) => (
                <li key={path}>
                  <NavLink href={base + path} exact={!nested}>
                    {label}
                  </NavLink>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
