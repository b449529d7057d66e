import { notFound } from 'next/navigation';

// /console/sites/{id}/<anything unknown> — the not-found card under the site's header and tabs
// (the layout has already checked that the site is the user's).
export default function UnknownSitePage(): never {
  notFound();
}
