import { notFound } from 'next/navigation';

// /console/<anything unknown> — the console's own not-found card (inside its layout), not Next's bare 404.
export default function UnknownConsolePage(): never {
  notFound();
}
