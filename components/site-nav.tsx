import { SITE_SECTIONS } from '@/app/(console)/_lib/site-sections';
import { NavLink } from './nav-link';

export function SiteNav({ siteId }: { siteId: string }) {
  const base = `/console/sites/${siteId}`;
  return (
    <nav aria-label="Site sections" className="tabs">
      {SITE_SECTIONS.map(({ path, label, nested, below }) => (
        <NavLink key={path} href={base + path} exact={!nested} below={below && base + below}>
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
