import Link from 'next/link';

// Also what another account's site looks like: its existence is not revealed.
export default function ConsoleNotFound() {
  return (
    <section className="card">
      <h1>Not found</h1>
      <p>This page does not exist, or it belongs to another account.</p>
      <Link href="/console" className="button">
        Back to your sites
      </Link>
    </section>
  );
}
