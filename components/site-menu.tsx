'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, type ReactNode } from 'react';

/** A section as the menu needs it: its address, its name, and whether the pages below it are part of it. */
export interface MenuEntry {
  href: string;
  label: string;
  nested: boolean;
}

const isCurrent = (pathname: string, { href, nested }: MenuEntry) => pathname === href || (nested && pathname.startsWith(`${href}/`));

/**
 * The site's menu behind a "Menu" button on narrow screens (a `<details>`: it opens and closes
 * without JavaScript, with the keyboard, and says whether it is open). The button names the
 * section shown. On wide screens console.css keeps it open and hides the button: the menu is the
 * sidebar. After a link is followed the menu folds again.
 */
export function SiteMenu({ entries, children }: { entries: MenuEntry[]; children: ReactNode }) {
  const pathname = usePathname();
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  const current = entries.find((e) => isCurrent(pathname, e));
  return (
    <details className="site-menu" ref={ref}>
      <summary>
        <span className="menu-icon" aria-hidden="true" />
        Menu
        {current && (
          <span className="menu-current">
            <span className="visually-hidden">, current section: </span>
            {current.label}
          </span>
        )}
      </summary>
      {children}
    </details>
  );
}
