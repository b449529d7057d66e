import Link from 'next/link';
import type { ReactNode } from 'react';
import { NavLink } from '@/components/nav-link';
import { accountOf } from '@/lib/users/service';
import { signOutAction } from '../_lib/auth-actions';
import { requireUser } from '../_lib/session';
import { VerifyBanner } from './verify-banner';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const account = await accountOf(user.id);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link href="/console" className="brand">
            Site Growth Platform
          </Link>
          <nav aria-label="Main" className="topnav">
            <NavLink href="/console" below="/console/sites">
              Sites
            </NavLink>
            <NavLink href="/console/account/security">Account security</NavLink>
            <a href="/docs">API docs</a>
          </nav>
          <div className="account">
            <span>{user.name ?? user.email}</span>
            <form action={signOutAction}>
              <button type="submit" className="button small">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      {!account.email_verified && <VerifyBanner email={account.email} />}
      <main id="main" className="page">
        {children}
      </main>
    </>
  );
}
