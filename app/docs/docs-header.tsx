import Link from 'next/link';
import styles from './docs.module.css';

/** The top bar of the docs pages: the product, its two guides (the current one marked) and who is signed in. */
export function DocsHeader({ current, user }: { current: 'api' | 'tracker'; user: { name?: string | null; email: string } | null }) {
  return (
    <header className={styles.topbar}>
      <Link href="/console" className={styles.brand}>
        Site Growth Platform
      </Link>
      <nav aria-label="Main" className={styles.nav}>
        <Link href="/console">Sites</Link>
        <a href="/docs" aria-current={current === 'api' ? 'page' : undefined}>
          API docs
        </a>
        <a href="/docs/tracker" aria-current={current === 'tracker' ? 'page' : undefined}>
          Tracker guide
        </a>
      </nav>
      <span className={styles.account}>{user ? (user.name ?? user.email) : <a href="/signin">Sign in</a>}</span>
    </header>
  );
}
