import Link from 'next/link';

/** The way back from one thing to the list it belongs to, above the page's cards: "← All leads". */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <p>
      <Link href={href}>{`← ${label}`}</Link>
    </p>
  );
}
