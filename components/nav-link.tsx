'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';

const isUnder = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/**
 * A link that marks itself as the current page (`aria-current`): exactly, or for everything below it
 * (`exact={false}`), or also for everything below another path (`below`).
 */
export function NavLink({ href, exact = true, below, children }: { href: string; exact?: boolean; below?: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = (exact ? pathname === href : isUnder(pathname, href)) || (below !== undefined && isUnder(pathname, below));
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}
