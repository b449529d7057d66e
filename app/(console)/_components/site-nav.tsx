'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { SITE_SECTIONS } from '../_lib/site-sections';

export function SiteNav({ siteId }: { siteId: string }) {
  const pathname = usePathname();
  const base = `/console/sites/${siteId}`;
  return (
    <nav aria-label="Site sections" className="tabs">
      {SITE_SECTIONS.map(({ path, label }) => {
        const href = base + path;
        return (
          <Link key={href} href={href} aria-current={pathname === href ? 'page' : undefined}>
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
